import { PageHeader } from '../../ui/PageHeader';
import { FaqCategories } from './FaqCategories';
import { FaqContact } from './FaqContact';
import { FaqFilters } from './FaqFilters';
import { FaqNoResults } from './FaqNoResults';
import { FaqQuickLinks } from './FaqQuickLinks';
import { useFaqFilter } from './use-faq-filter';
import './faq.css';

export default function FaqPage() {
  const faq = useFaqFilter();
  const count = faq.questionCount;

  return (
    <div className="page faq-page">
      <PageHeader
        title="FAQ & Help"
        description="Answers about combines, fees, limits, cards and payouts. Can’t find yours? Our support team is a message away."
      />
      <div className="faq-layout">
        <div className="faq-main">
          <FaqFilters
            categories={faq.categories}
            query={faq.query}
            categoryId={faq.categoryId}
            onSearch={faq.search}
            onChooseCategory={faq.chooseCategory}
          />

          <p className="visually-hidden" role="status">
            {/* Worded differently from the visible 'No results found' so each text is found once. */}
            {count === 0 ? 'No questions match your search.' : `${count} ${count === 1 ? 'question' : 'questions'} shown`}
          </p>

          {faq.visible.length === 0 ? (
            <FaqNoResults query={faq.query} onClear={faq.clearFilters} />
          ) : (
            <FaqCategories categories={faq.visible} openIds={faq.openIds} onOpenIdsChange={faq.setOpenIds} />
          )}
        </div>
        <FaqQuickLinks />
      </div>
      <FaqContact />
    </div>
  );
}

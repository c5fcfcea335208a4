import * as Accordion from '@radix-ui/react-accordion';
import { Icon } from '../../ui/Icon';
import type { FaqCategory } from './faq-types';

type FaqCategoriesProps = {
  categories: readonly FaqCategory[];
  openIds: string[];
  onOpenIdsChange: (ids: string[]) => void;
};

function questions(count: number): string {
  return `${count} ${count === 1 ? 'question' : 'questions'}`;
}

/** The categories as an accordion, any number open at once; each heading opens and closes its answers. */
export function FaqCategories({ categories, openIds, onOpenIdsChange }: FaqCategoriesProps) {
  return (
    <Accordion.Root type="multiple" value={openIds} onValueChange={onOpenIdsChange} className="faq-categories">
      {categories.map((category) => (
        <Accordion.Item key={category.id} value={category.id} className="faq-category">
          <Accordion.Header asChild>
            <h2 className="faq-category-heading">
              <Accordion.Trigger className="faq-category-trigger">
                <span>{category.title}</span>
                <span className="faq-category-count">{questions(category.items.length)}</span>
                <Icon name="chevronDown" className="faq-category-chevron" />
              </Accordion.Trigger>
            </h2>
          </Accordion.Header>
          <Accordion.Content className="faq-category-content">
            <div className="faq-items">
              {category.items.map((item) => (
                <div key={item.id} className="faq-item" id={`faq-${item.id}`}>
                  <h3>{item.question}</h3>
                  {item.answer.map((paragraph) => (
                    <p key={paragraph}>{paragraph}</p>
                  ))}
                </div>
              ))}
            </div>
          </Accordion.Content>
        </Accordion.Item>
      ))}
    </Accordion.Root>
  );
}

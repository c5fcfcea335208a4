import type { ReactNode } from 'react';
import './legal.css';

export type LegalSection = {
  /** Anchor of the section, also used by the table of contents. */
  id: string;
  title: string;
  body: ReactNode;
};

type LegalDocumentProps = {
  title: string;
  /** en-US date shown under the title, e.g. 5/25/2025; `isoDate` is its machine-readable form. */
  effectiveDate: string;
  isoDate: string;
  intro: ReactNode;
  sections: readonly LegalSection[];
};

/** Layout shared by the Terms, Privacy and Compliance pages: title, dates, contents, sections. */
export function LegalDocument({ title, effectiveDate, isoDate, intro, sections }: LegalDocumentProps) {
  return (
    <article className="page legal" aria-labelledby="legal-title">
      <header className="legal-header">
        <p className="legal-kicker">Legal</p>
        <h1 id="legal-title">{title}</h1>
        <p className="legal-date">
          Effective date: <time dateTime={isoDate}>{effectiveDate}</time>
        </p>
      </header>
      <div className="legal-layout">
        <nav className="legal-toc" aria-label="On this page">
          <p className="legal-toc-title" aria-hidden="true">
            On this page
          </p>
          <ol>
            {sections.map((section) => (
              <li key={section.id}>
                <a href={`#${section.id}`}>{section.title}</a>
              </li>
            ))}
          </ol>
        </nav>
        <div className="legal-body">
          <div className="legal-intro">{intro}</div>
          {sections.map((section, index) => (
            <section key={section.id} id={section.id} aria-labelledby={`${section.id}-title`} className="legal-section">
              <h2 id={`${section.id}-title`}>
                {index + 1}. {section.title}
              </h2>
              {section.body}
            </section>
          ))}
        </div>
      </div>
    </article>
  );
}

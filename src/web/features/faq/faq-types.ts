export type FaqItem = {
  id: string;
  question: string;
  /** Paragraphs of plain text: searchable as they are and rendered one <p> each. */
  answer: readonly string[];
};

export type FaqCategory = {
  id: string;
  title: string;
  items: readonly FaqItem[];
};

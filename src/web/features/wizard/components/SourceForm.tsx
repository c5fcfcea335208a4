import { Form } from '../../../ui/Form';
import { useSourceForm } from '../use-source-form';
import type { SourceFormProps } from '../use-source-form';
import { CardDetailsFields } from './CardDetailsFields';
import { DemoTestCards } from './DemoTestCards';
import { SourceAmountFields, SourcePreviewLine } from './SourceAmountFields';
import { FullyFundedNotice, SourceFormActions, SourceRefusals } from './SourceFormStates';
import { SourceTypeFields } from './SourceTypeFields';

export { CHOOSE_CARD_MESSAGE } from '../source-form-model';

/** Step 2's add-source form (docs/rules.md#source-validation): every failed check is a toast with the spec's words, and its field marked. */
export function SourceForm(props: SourceFormProps) {
  const source = useSourceForm(props);
  const { fullyFunded, adding, isCard } = source;
  return (
    <Form form={source.form} onSubmit={source.onValid} onInvalid={source.onInvalid} className="source-form" aria-labelledby="add-source-heading">
      <h3 id="add-source-heading" className="wizard-subheading">
        Add a payment source
      </h3>
      {fullyFunded && <FullyFundedNotice />}
      {/* Locked while a card is being authorized: what was typed meanwhile would be cleared with the form once it is added. */}
      <fieldset className="source-form-fields" disabled={fullyFunded || adding}>
        <legend className="visually-hidden">Payment source details</legend>
        <SourceTypeFields source={source} />
        <SourceAmountFields source={source} />
        {isCard && <CardDetailsFields expiry="month-year" onEdit={source.onEdit} onCardNumber={source.onCardNumber} />}
        {isCard && source.demoMode && <DemoTestCards onUse={source.pickTestNumber} />}
        {source.preview && <SourcePreviewLine preview={source.preview} />}
        <SourceRefusals declined={source.declined} refused={source.refused} adding={adding} />
        <SourceFormActions isCard={isCard} adding={adding} fullyFunded={fullyFunded} />
      </fieldset>
    </Form>
  );
}

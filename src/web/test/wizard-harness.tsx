// A component that holds the wizard's hook, for the tests of the hook and of the steps it feeds:
// it renders what `show` makes of the wizard and hands the hook's latest value to the test.
import type { ReactNode } from 'react';
import { useWizard } from '../features/wizard/use-wizard';
import type { Wizard } from '../features/wizard/use-wizard';
import type { Combine } from '../../contracts/combines';
import type { FakeCombines } from './fake-combines';
import type { FakeHandler } from './render';

export function WizardHarness({ options, show, onWizard }: { options: Parameters<typeof useWizard>[0]; show?: (wizard: Wizard) => ReactNode; onWizard: (wizard: Wizard) => void }) {
  const wizard = useWizard(options);
  onWizard(wizard);
  return <>{show ? show(wizard) : <p data-testid="wizard-step">{wizard.state.step}</p>}</>;
}

/** Starts the fake's draft (combine-1, $100.00, no buffer) and adds a Visa charging what it needs. */
export async function fundedDraft(server: FakeCombines): Promise<Combine> {
  const call = (key: string, body: unknown) => (server.routes[key] as FakeHandler)({ body, url: new URL(`http://localhost${key.split(' ')[1]}`), headers: new Headers() });
  const started = (await call('POST /api/combines', { baseInput: '100', bufferInput: '0', bufferMode: 'percent' })).body as Combine;
  await call('POST /api/combines/combine-1/sources', { type: 'credit', provider: 'visa', chargeCents: started.funding.suggestedChargeCents.card, cardNumber: '4242424242424242' });
  return server.combine();
}

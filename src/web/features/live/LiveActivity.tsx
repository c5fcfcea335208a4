// The signed-in pages' live activity (docs/rules.md#live-activity): one Server-Sent Events stream
// per page; each event refreshes what the page shows (the cards, the dashboard, a card's details)
// and is said in a polite live region, so a screen reader hears it without losing its place.
import { useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { LiveEvent } from '../../../contracts/live-events';
import { describeEvent } from './describe-event';

/** Ids remembered to drop an event sent twice (a reconnect may resend the last few). */
const REMEMBERED = 200;

export function LiveActivity() {
  const queryClient = useQueryClient();
  const [said, setSaid] = useState('');
  useEffect(() => {
    // Browsers without EventSource (and the tests' DOM) simply show what a reload shows.
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource('/api/events/stream');
    const seen: string[] = [];
    source.onmessage = (message: MessageEvent<string>) => {
      const event = eventFrom(message.data);
      if (!event || seen.includes(event.id)) return;
      seen.push(event.id);
      if (seen.length > REMEMBERED) seen.shift();
      // Whatever the event, the pages' figures may have moved: the active queries load again.
      void queryClient.invalidateQueries();
      const sentence = describeEvent(event);
      if (sentence) setSaid(sentence);
    };
    return () => source.close();
  }, [queryClient]);
  return (
    <div className="visually-hidden" role="status" aria-live="polite" aria-atomic="true">
      {said}
    </div>
  );
}

/** The message's event, or null for anything that is not one (checked by hand: no schema library in this frame). */
function eventFrom(text: string): LiveEvent | null {
  try {
    const value: unknown = JSON.parse(text);
    if (typeof value !== 'object' || value === null) return null;
    const { id, type } = value as Record<string, unknown>;
    return typeof id === 'string' && typeof type === 'string' ? (value as LiveEvent) : null;
  } catch {
    return null;
  }
}

import { channelClient } from '../../protocol/channel.ts';
import { correlator } from '../../protocol/correlated-channel.ts';
import { AnswerEnvelope, PageChannelAsks } from '../../protocol/page-channel.ts';

/** How long the page's continuation calls wait for Steward's answer (the isolated world, then the service worker). */
const ASK_MS = 10_000;

/**
 * The main world's questions to the isolated world (PageChannelAsks): the page's continuation
 * calls, which only Steward's service worker can answer. Carried on the private port as
 * `{ ask }` / `{ answer }`, apart from the isolated world's own requests. A refusal rejects with
 * Steward's reason.
 */
export interface PageAsks {
  /** A continuation token for the agent's run `run_id`. */
  token(run_id: string): Promise<string>;
  /** Redeems a token; resolves with the tool's name. */
  resume(token: string): Promise<string>;
}

export function pageAsks(port: MessagePort): PageAsks {
  const replies = correlator<PageChannelAsks>(
    (request) => port.postMessage({ ask: request }),
    () => ASK_MS,
    (_, ms) => new Error(`Steward did not answer within ${ms} ms.`),
  );
  const client = channelClient(PageChannelAsks, (message) => replies.send(message));
  port.addEventListener('message', (event: MessageEvent) => {
    const answer = AnswerEnvelope.safeParse(event.data);
    if (answer.success) replies.receive(answer.data.answer);
  });
  port.start();
  return {
    async token(run_id) {
      const reply = await client.call('token', { run_id });
      if (!reply.ok) throw new Error(reply.error.message);
      return reply.data.token;
    },
    async resume(token) {
      const reply = await client.call('resume', { token });
      if (!reply.ok) throw new Error(reply.error.message);
      return reply.data.tool;
    },
  };
}

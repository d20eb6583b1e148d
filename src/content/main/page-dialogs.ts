import { PAGE_DIALOGS_ARM, PAGE_DIALOGS_REPLY } from '../../protocol/page-channel-names.ts';
import { disguise } from './listener-marks.ts';

/**
 * The page's own JavaScript dialogs while an agent acts (issue 27, self-approval). A `confirm`,
 * `prompt` or `alert` the page raises during an agent's act (armed by the isolated world, see
 * src/content/act/page-dialogs.ts) never reaches a person who might accept it reflexively, and is
 * never accepted: `confirm` answers false (Cancel), `prompt` null, `alert` nothing, as a person who
 * said no. Each is noted and reported, so the action is reported as needing the person. Outside an
 * act the page's dialogs are the browser's, for the person. A page that forges the arming events
 * only makes its own dialogs go unanswered or shows them to the person: never accepted either way.
 */

type Kind = 'confirm' | 'prompt' | 'alert';
/** What the page asked, clipped; at most this many are kept per act. */
const MAX_NOTED = 8;
const MAX_MESSAGE = 300;

export function installPageDialogs(win: Window & typeof globalThis = window): void {
  const doc = win.document;
  const apply = Reflect.apply;
  const dispatch = win.EventTarget.prototype.dispatchEvent;
  const addListener = win.EventTarget.prototype.addEventListener;
  const CustomEventOf = win.CustomEvent;
  const stringify = win.JSON.stringify;
  const StringOf = win.String;
  let armed = false;
  let noted: Array<{ kind: Kind; message: string }> = [];

  const wrap = (kind: Kind, refusal: unknown) => {
    const original = win[kind] as (...args: unknown[]) => unknown;
    const wrapper = function (this: unknown, message?: unknown): unknown {
      // eslint-disable-next-line prefer-rest-params
      if (!armed) return apply(original, this ?? win, arguments);
      if (noted.length < MAX_NOTED) {
        let text = '';
        try {
          text = message === undefined ? '' : StringOf(message).slice(0, MAX_MESSAGE);
        } catch {
          // A message whose toString throws: noted without its text.
        }
        noted.push({ kind, message: text });
      }
      return refusal;
    };
    disguise(wrapper as (...args: never[]) => unknown, original as (...args: never[]) => unknown, kind);
    win[kind] = wrapper as never;
  };
  wrap('confirm', false);
  wrap('prompt', null);
  wrap('alert', undefined);

  apply(addListener, doc, [
    PAGE_DIALOGS_ARM,
    (event: Event) => {
      const detail = (event as CustomEvent).detail;
      if (detail === 'on') {
        armed = true;
        noted = [];
        return;
      }
      if (detail !== 'off') return;
      armed = false;
      const reply = noted;
      noted = [];
      try {
        apply(dispatch, doc, [new CustomEventOf(PAGE_DIALOGS_REPLY, { detail: stringify(reply) })]);
      } catch {
        // No answer: the isolated world reports no dialog (none was accepted either way).
      }
    },
  ]);
}

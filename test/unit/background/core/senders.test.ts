import { describe, expect, it } from 'vitest';
import { classifySender } from '../../../../src/background/core/senders.ts';

const ID = 'abcdefghijklmnopabcdefghijklmnop';
const PANEL = `chrome-extension://${ID}/src/sidepanel/`;

describe('classifySender', () => {
  it('recognises a content script by its tab, frame and web URL', () => {
    expect(classifySender({ id: ID, url: 'http://localhost:4101/#/book', origin: 'http://localhost:4101', tab: { id: 7 }, frameId: 0, documentId: 'D1' }, ID, PANEL)).toEqual({
      kind: 'content',
      tabId: 7,
      frameId: 0,
      documentId: 'D1',
      origin: 'http://localhost:4101',
      url: 'http://localhost:4101/#/book',
    });
  });

  it('recognises the side panel by its extension URL, in a tab or not', () => {
    expect(classifySender({ id: ID, url: `${PANEL}index.html` }, ID, PANEL)).toEqual({ kind: 'panel' });
    expect(classifySender({ id: ID, url: `${PANEL}index.html?tabId=3`, tab: { id: 3 }, frameId: 0 }, ID, PANEL)).toEqual({ kind: 'panel' });
  });

  it('refuses other extensions, even ones that claim the panel URL', () => {
    expect(classifySender({ id: 'other', url: `${PANEL}index.html` }, ID, PANEL)).toEqual({ kind: 'unknown' });
  });

  it('refuses other extension pages of Steward and senders without a frame', () => {
    expect(classifySender({ id: ID, url: `chrome-extension://${ID}/other.html`, tab: { id: 1 }, frameId: 0 }, ID, PANEL)).toEqual({ kind: 'unknown' });
    expect(classifySender({ id: ID, url: 'http://localhost/' }, ID, PANEL)).toEqual({ kind: 'unknown' });
    expect(classifySender({ id: ID, url: 'file:///etc/passwd', tab: { id: 1 }, frameId: 0 }, ID, PANEL)).toEqual({ kind: 'unknown' });
  });
});

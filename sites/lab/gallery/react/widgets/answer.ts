/** What a widget page sends the lab: `{episode, answer}` to `/widgets/<slug>/answer`, the episode from the page URL. */
export async function sendAnswer(slug: string, answer: unknown): Promise<boolean> {
  const episode = new URLSearchParams(window.location.search).get('episode') ?? 'none';
  const res = await fetch(`/widgets/${slug}/answer`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ episode, answer }) });
  return res.ok;
}

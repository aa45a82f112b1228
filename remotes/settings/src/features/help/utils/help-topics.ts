/** FAQ topics of the help centre; texts under help.topics.<id>.{title,summary,p1..p3} in the 'settings' namespace. */
export const HELP_TOPICS = ['deposit', 'withdraw', 'fund-password', 'convert', 'rewards'] as const;
export type HelpTopic = (typeof HELP_TOPICS)[number];

/** Paragraph keys of a topic's detail text, in order. */
export const TOPIC_PARAGRAPHS = ['p1', 'p2', 'p3'] as const;

export function isHelpTopic(value: unknown): value is HelpTopic {
  return typeof value === 'string' && (HELP_TOPICS as readonly string[]).includes(value);
}

export function topicKey(topic: HelpTopic, part: 'title' | 'summary' | (typeof TOPIC_PARAGRAPHS)[number]): string {
  return `help.topics.${topic}.${part}`;
}

/** The detail screen of a topic, e.g. /funcDescDetail?topic=fund-password. */
export function topicPath(topic: HelpTopic): string {
  return `/funcDescDetail?topic=${encodeURIComponent(topic)}`;
}

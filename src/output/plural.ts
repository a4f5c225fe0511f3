/** `1 payment`, `2 payments`; `plural(1, 'entry', 'entries')`. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

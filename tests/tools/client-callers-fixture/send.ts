/** Stands for the client's HTTP call. */
export async function send(path: string, body: unknown): Promise<unknown> {
  return { path, body };
}

// The JSON API: requests with the session header, and errors turned into exceptions that keep
// the server's message, code, field and place.

export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly field?: string,
    readonly line?: number,
    readonly column?: number,
  ) {
    super(message);
  }
}

let session: string | null = localStorage.getItem("koma-session");

/** The page's session id (asked for once, then kept): jobs are listed and limited per session. */
export async function ensureSession(): Promise<string> {
  if (session) return session;
  const r = await request<{ session: string }>("POST", "/api/session");
  session = r.session;
  localStorage.setItem("koma-session", session);
  return session;
}

/** Sends a request and returns the JSON answer, or throws an ApiFailure. */
export async function request<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (session) headers["X-Koma-Session"] = session;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let resp: Response;
  try {
    resp = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch (e) {
    throw new ApiFailure(0, "network", `the server did not answer (${e}); is koma serve running?`);
  }
  const text = await resp.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    throw new ApiFailure(resp.status, "bad_answer", `the server answered ${resp.status} with no JSON`);
  }
  if (!resp.ok) {
    const e = (json as { error?: { code: string; message: string; field?: string; line?: number; column?: number } })?.error;
    throw new ApiFailure(resp.status, e?.code ?? "error", e?.message ?? `HTTP ${resp.status}`, e?.field, e?.line, e?.column);
  }
  return json as T;
}

/** A job as the server shows it. */
export interface Job {
  id: number;
  kind: string;
  state: "queued" | "running" | "done" | "failed" | "cancelled";
  params: Record<string, unknown>;
  progress: Record<string, unknown> | null;
  result: Record<string, unknown> | null;
  /** Why it failed or was cancelled, or a note on an interruption (`code` is stable). */
  error: { code: string; message: string; field?: string } | null;
  restarts: number;
  created_at: number;
}

/** Whether a job has ended (done, failed or cancelled): its view changes no more. */
export function ended(j: Job): boolean {
  return j.state === "done" || j.state === "failed" || j.state === "cancelled";
}

/** Follows a job's events until it ends; returns a function that stops following. */
export function followJob(id: number, onUpdate: (job: Job) => void): () => void {
  const source = new EventSource(`/api/jobs/${id}/events`);
  const handle = (ev: MessageEvent) => onUpdate(JSON.parse(ev.data) as Job);
  source.addEventListener("progress", handle);
  source.addEventListener("end", (ev) => {
    handle(ev as MessageEvent);
    source.close();
  });
  return () => source.close();
}

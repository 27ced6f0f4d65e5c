/** A tiny HTTP client over real fetch: JSON in and out, and a cookie jar when it plays a browser. */
export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface RequestOptions {
  body?: unknown;
  headers?: Record<string, string>;
  /** Send this exact text as the body (with the given content type). */
  raw?: string;
  contentType?: string;
}

export class Client {
  readonly cookies = new Map<string, string>();
  csrf: string | null = null;
  bearer: string | null = null;

  constructor(readonly baseUrl: string) {}

  withBearer(token: string): Client {
    const other = new Client(this.baseUrl);
    other.bearer = token;
    return other;
  }

  /** What this client sends to prove who it is: the cookie jar, the Bearer token, and CSRF on writes. */
  credentialHeaders(method: string): Record<string, string> {
    const headers: Record<string, string> = {};
    if (this.cookies.size > 0) headers.cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (this.bearer !== null) headers.authorization = `Bearer ${this.bearer}`;
    if (this.csrf !== null && !['GET', 'HEAD'].includes(method)) headers['x-csrf-token'] = this.csrf;
    return headers;
  }

  async request<T = any>(method: string, path: string, options: RequestOptions = {}): Promise<Answer<T>> {
    const headers: Record<string, string> = { ...this.credentialHeaders(method), ...options.headers };
    let payload: string | undefined;
    if (options.raw !== undefined) {
      payload = options.raw;
      headers['content-type'] = options.contentType ?? 'application/json';
    } else if (options.body !== undefined) {
      payload = JSON.stringify(options.body);
      headers['content-type'] = 'application/json';
    }
    const response = await fetch(this.baseUrl + path, { method, headers, body: payload });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const eq = pair!.indexOf('=');
      this.cookies.set(pair!.slice(0, eq), pair!.slice(eq + 1));
    }
    const text = await response.text();
    let body: any = null;
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      body = text;
    }
    if (body !== null && typeof body === 'object' && typeof body.csrf === 'string') this.csrf = body.csrf;
    return { status: response.status, headers: response.headers, body, text };
  }

  get<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('GET', path, options);
  }
  post<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('POST', path, { ...options, body });
  }
  patch<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('PATCH', path, { ...options, body });
  }
  put<T = any>(path: string, body?: unknown, options: RequestOptions = {}) {
    return this.request<T>('PUT', path, { ...options, body });
  }
  delete<T = any>(path: string, options?: RequestOptions) {
    return this.request<T>('DELETE', path, options);
  }
}

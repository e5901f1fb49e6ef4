// Types for the two parts of undici the HTTP client imports on their own (support/transport/http.ts
// says why): the package's own types describe them, under its main entry.
declare module 'undici/lib/dispatcher/agent.js' {
  import { Agent } from 'undici';
  export default Agent;
}

declare module 'undici/lib/api/api-request.js' {
  import type { Dispatcher } from 'undici';
  export default function request(this: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
}

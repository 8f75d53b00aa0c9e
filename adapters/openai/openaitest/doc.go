// Package openaitest is a fake OpenAI-compatible server for tests: a real
// HTTP server on 127.0.0.1 (net/http/httptest) that speaks the wire format of
// POST /v1/chat/completions and is scripted by a Handler that sees each
// decoded request, so tests can route on the persona, the schema name or
// the prompt and return canned JSON.
//
// Responder plays a whole deliberation deterministically; Inject layers
// faults over any handler: invalid JSON, rule-breaking ballots, 429 with
// Retry-After, 5xx, and answers that never come (Hang, which waits for the
// client to give up, so tests need no sleeps). What real endpoints do to a
// long run is scripted too: Drop (a connection closed without an answer),
// Unauthorized (401), ModelNotFound (404), InsufficientQuota (429
// insufficient_quota), Truncated (finish_reason "length"), Refused (a
// refusal), and NoJSONSchema (a server that answers 400 to json_schema
// response formats). Server.Requests and Server.Count tell what was asked.
//
//	srv := openaitest.NewServer(openaitest.Inject(openaitest.Responder{}.Handle,
//		openaitest.Fault{Match: openaitest.Persona("Bob"), Reply: openaitest.Always(openaitest.RateLimited("1"))}))
//	defer srv.Close()
//	client := openai.New(openai.Config{BaseURL: srv.URL(), Model: "fake"})
package openaitest

// Package embed asks a hosted embeddings model for vectors: an
// OpenAI-compatible endpoint (POST BASE/embeddings, as OpenAI, Azure
// gateways, LiteLLM, vLLM and Ollama serve it) or Amazon Bedrock's Titan
// text embeddings (POST /model/MODEL/invoke, signed with SigV4).
//
// The builder (mcpsearch build --embed-…) embeds every item's text with
// [Client.EmbedItems], in batches, a bounded number of calls at once, each
// call under a timeout and retried after a 429 or 5xx (honouring
// Retry-After); a 401, 403 or 404 is final and said plainly. The server
// embeds a query with [Client.EmbedQuery] under its own short deadline
// (package index falls back to its word vectors when that fails).
//
// Every text is cut to MaxTextBytes, and every answer read to a bound that
// follows from the number of vectors asked for, so neither a long query nor
// a misbehaving endpoint can cost more. Every answer is checked: one
// vector a text, all of the same dimensions (those asked for, when asked),
// at most MaxDims, finite and not zero — anything else is an error naming
// what is wrong.
//
// The bounds of a call ([Calls], [Calls.Post]) are shared with
// infra/requests, which asks a language model with the same timeouts,
// retries and answer bounds.
//
// Privacy: the texts leave the process only to the endpoint the operator
// configured: a redirect is followed only within its origin
// (redirect.SameOrigin), so neither a text nor a credential goes to
// another. An API key travels in the Authorization header only, and
// [Model] (what a bundle records) holds none. What an error quotes of a
// refusal ([StatusError.Said]) is at most 300 bytes, its control
// characters written as escapes ([Snippet]), with the key and every
// credential header the call carried (a SigV4 signature, a session token)
// redacted in every form package redact knows.
//
// The package imports neither package index (its interfaces take the
// client's methods) nor the AWS SDK's credential chain: the caller hands
// it credentials (the function its role's, which Lambda sets in the
// environment; mcpsearch build the chain's).
package embed

package openai

import (
	"context"
	"fmt"
	"slices"
	"time"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/roundtable-ai/roundtable/roundtable"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/embed"
)

// Embedder embeds texts through the endpoint's POST /v1/embeddings, with
// the Client's concurrency limit, rate budgets and retries. It is safe for
// concurrent use.
type Embedder struct {
	c     *Client
	model string
}

var _ embed.Embedder = (*Embedder)(nil)

// Embedder returns an Embedder that asks for model (e.g.
// "text-embedding-3-small"; "" means the Client's model).
func (c *Client) Embedder(model string) *Embedder {
	if model == "" {
		model = c.cfg.Model
	}
	return &Embedder{c: c, model: model}
}

// Model implements embed.Embedder.
func (e *Embedder) Model() string { return e.model }

// Embed implements embed.Embedder. Errors are *agent.Error, as Complete's.
func (e *Embedder) Embed(ctx context.Context, texts []string) ([][]float64, error) {
	start := time.Now()
	u := roundtable.Usage{Calls: 1}
	if e.c.err != nil {
		return nil, &agent.Error{Code: agent.CodeRejected, Usage: u, Err: e.c.err}
	}
	if len(texts) == 0 {
		return nil, nil
	}
	cl := &call{tokens: float64(textBytes(texts)) / 4}
	resp, err := e.c.api.CreateEmbeddings(withCall(ctx, cl), goopenai.EmbeddingRequestStrings{
		Input: texts, Model: goopenai.EmbeddingModel(e.model), EncodingFormat: goopenai.EmbeddingEncodingFormatFloat})
	u.Retries, u.LatencyMS = int(cl.retries.Load()), time.Since(start).Milliseconds()
	if err != nil {
		e.c.totals.add(u, true)
		return nil, e.c.wrap(ctx, err, u)
	}
	u.PromptTokens = resp.Usage.PromptTokens
	e.c.totals.add(u, false)
	return vectors(e.c.cfg.Name, resp, len(texts))
}

// vectors orders the answer's embeddings by index and checks there is one
// per text.
func vectors(endpoint string, resp goopenai.EmbeddingResponse, n int) ([][]float64, error) {
	data := slices.Clone(resp.Data)
	slices.SortFunc(data, func(a, b goopenai.Embedding) int { return a.Index - b.Index })
	if len(data) != n {
		return nil, &agent.Error{Code: agent.CodeUnavailable,
			Err: fmt.Errorf("openai endpoint %q: %d embeddings for %d texts", endpoint, len(data), n)}
	}
	out := make([][]float64, n)
	for i, d := range data {
		if d.Index != i {
			return nil, &agent.Error{Code: agent.CodeUnavailable,
				Err: fmt.Errorf("openai endpoint %q: embedding index %d where %d was due", endpoint, d.Index, i)}
		}
		out[i] = make([]float64, len(d.Embedding))
		for j, x := range d.Embedding {
			out[i][j] = float64(x)
		}
	}
	return out, nil
}

func textBytes(texts []string) int {
	n := 0
	for _, t := range texts {
		n += len(t)
	}
	return n
}

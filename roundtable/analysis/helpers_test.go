package analysis_test

import (
	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/acts"
	"github.com/roundtable-ai/roundtable/roundtable/analysis/label"
)

func actsModel(srv *openaitest.Server) acts.Model {
	return acts.Model{Labeler: &label.Sampler{LLM: openai.New(openai.Config{Name: "m", BaseURL: srv.URL(), Model: "fake", MaxRetries: -1, BreakerFailures: -1}), Endpoint: "m", K: 1}}
}

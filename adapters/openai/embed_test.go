package openai_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/roundtable-ai/roundtable/adapters/openai"
	"github.com/roundtable-ai/roundtable/adapters/openai/openaitest"
	"github.com/roundtable-ai/roundtable/roundtable/agent"
)

func TestEmbedderThroughFake(t *testing.T) {
	srv := openaitest.NewServer(nil)
	defer srv.Close()
	e := openai.New(openai.Config{Name: "emb", BaseURL: srv.URL(), Model: "chat"}).Embedder("text-embedding-3-small")
	texts := []string{"apples and pears", "pears and apples", "bananas"}
	got, err := e.Embed(t.Context(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, text := range texts {
		want, _ := openaitest.BagOfWords("", text)
		if fmt.Sprint(got[i]) != fmt.Sprint(want) {
			t.Fatalf("vector %d = %v, want %v", i, got[i], want)
		}
	}
	reqs := srv.EmbedRequests()
	if len(reqs) != 1 || reqs[0].Model != "text-embedding-3-small" || len(reqs[0].Input) != 3 {
		t.Fatalf("requests %+v", reqs)
	}
	if e.Model() != "text-embedding-3-small" {
		t.Fatalf("model %q", e.Model())
	}
}

func TestEmbedderErrorIsClassified(t *testing.T) {
	srv := openaitest.NewServer(nil)
	defer srv.Close()
	srv.SetEmbed(func(model, _ string) ([]float64, openaitest.Reply) {
		return nil, openaitest.Status(404, "The model `"+model+"` does not exist")
	})
	_, err := openai.New(openai.Config{Name: "emb", BaseURL: srv.URL(), Model: "nope", APIKey: "sk-secret"}).Embedder("").Embed(t.Context(), []string{"x"})
	var le *agent.Error
	if !errors.As(err, &le) || le.Code != agent.CodeRejected || !strings.Contains(err.Error(), "nope") || strings.Contains(err.Error(), "sk-secret") {
		t.Fatalf("error %v, want a rejected error naming the model, without the key", err)
	}
}

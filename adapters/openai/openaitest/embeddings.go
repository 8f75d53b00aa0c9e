package openaitest

import (
	"encoding/json"
	"hash/fnv"
	"io"
	"math"
	"net/http"
	"strings"
)

// EmbedFunc returns the embedding of one text, or a Reply with a non-200
// Status to fail the whole request.
type EmbedFunc func(model, text string) ([]float64, Reply)

// EmbedRequest is a decoded POST /v1/embeddings request.
type EmbedRequest struct {
	Model string
	Input []string
}

// SetEmbed makes the server answer POST /v1/embeddings with f; by default
// it answers with BagOfWords.
func (s *Server) SetEmbed(f EmbedFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.embedFn = f
}

// EmbedRequests returns the embeddings requests received so far.
func (s *Server) EmbedRequests() []EmbedRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]EmbedRequest(nil), s.embeds...)
}

// BagOfWords is the default EmbedFunc: a deterministic 16-dimensional
// vector counting each lower-cased word in a slot chosen by its hash.
func BagOfWords(_, text string) ([]float64, Reply) {
	v := make([]float64, 16)
	for _, w := range strings.Fields(strings.ToLower(text)) {
		h := fnv.New32a()
		h.Write([]byte(strings.Trim(w, ".,;:!?\"'")))
		v[h.Sum32()%16]++
	}
	return v, Reply{}
}

func (s *Server) embeddings(w http.ResponseWriter, hr *http.Request) {
	var req struct {
		Model string          `json:"model"`
		Input json.RawMessage `json:"input"`
	}
	body, err := io.ReadAll(hr.Body)
	if err == nil {
		err = json.Unmarshal(body, &req)
	}
	inputs, ierr := embedInputs(req.Input)
	if err != nil || ierr != nil {
		writeError(w, Status(http.StatusBadRequest, "decode embeddings request: "+errText(err, ierr)))
		return
	}
	s.mu.Lock()
	f := s.embedFn
	s.embeds = append(s.embeds, EmbedRequest{Model: req.Model, Input: inputs})
	s.mu.Unlock()
	if f == nil {
		f = BagOfWords
	}
	data := make([]map[string]any, len(inputs))
	tokens := 0
	for i, in := range inputs {
		v, rep := f(req.Model, in)
		if rep.Status != 0 && rep.Status != http.StatusOK {
			writeError(w, rep)
			return
		}
		data[i] = map[string]any{"object": "embedding", "index": i, "embedding": finite(v)}
		tokens += len(in)/4 + 1
	}
	writeJSON(w, http.StatusOK, map[string]any{"object": "list", "data": data, "model": req.Model,
		"usage": map[string]int{"prompt_tokens": tokens, "total_tokens": tokens}})
}

// embedInputs reads "input" given as one string or a list of strings.
func embedInputs(raw json.RawMessage) ([]string, error) {
	var one string
	if err := json.Unmarshal(raw, &one); err == nil {
		return []string{one}, nil
	}
	var many []string
	err := json.Unmarshal(raw, &many)
	return many, err
}

func finite(v []float64) []float64 {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			v[i] = 0
		}
	}
	return v
}

func errText(errs ...error) string {
	for _, e := range errs {
		if e != nil {
			return e.Error()
		}
	}
	return ""
}

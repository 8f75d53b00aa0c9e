package openai

import (
	"cmp"
	"strings"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/roundtable-ai/roundtable/roundtable/agent"
)

// chatRequest maps an agent request to go-openai's, for this endpoint, in
// the given structured-output mode. zeroTemp asks the transport to send
// "temperature": 0, which go-openai would omit (see setZeroTemperature).
func (c *Client) chatRequest(req agent.Request, mode agent.OutputMode) (out goopenai.ChatCompletionRequest, zeroTemp bool) {
	out = goopenai.ChatCompletionRequest{Model: cmp.Or(req.Model, c.cfg.Model), User: req.User}
	for _, m := range req.Messages {
		out.Messages = append(out.Messages, goopenai.ChatCompletionMessage{Role: string(m.Role), Content: m.Content})
	}
	out.ResponseFormat = responseFormat(req.Schema, mode)
	maxTokens := req.MaxTokens
	if maxTokens == 0 {
		maxTokens = c.cfg.MaxTokens
	}
	temp := req.Temperature
	if temp == nil {
		temp = c.cfg.Temperature
	}
	if reasoningModel(out.Model) {
		// go-openai refuses max_tokens and any temperature but 1 for
		// reasoning models; they take max_completion_tokens and no temperature.
		out.MaxCompletionTokens = maxTokens
	} else {
		// max_tokens, not max_completion_tokens: Ollama, vLLM and llama.cpp's
		// server read it, and OpenAI still accepts it for these models.
		//lint:ignore SA1019 see above
		out.MaxTokens = maxTokens
		if temp != nil {
			out.Temperature = float32(*temp)
			zeroTemp = *temp == 0
		}
	}
	if req.Seed != 0 {
		seed := int(req.Seed)
		out.Seed = &seed
	}
	return out, zeroTemp
}

// responseFormat asks for schema in mode.
func responseFormat(schema *agent.Schema, mode agent.OutputMode) *goopenai.ChatCompletionResponseFormat {
	switch {
	case schema == nil || mode == agent.OutputNone:
		return nil
	case mode == agent.OutputJSONObject:
		return &goopenai.ChatCompletionResponseFormat{Type: goopenai.ChatCompletionResponseFormatTypeJSONObject}
	}
	return &goopenai.ChatCompletionResponseFormat{
		Type: goopenai.ChatCompletionResponseFormatTypeJSONSchema,
		JSONSchema: &goopenai.ChatCompletionResponseFormatJSONSchema{
			Name: schema.Name, Schema: schema.JSON, Strict: true,
		},
	}
}

// reasoningModel reports the model names that go-openai validates as
// reasoning models.
func reasoningModel(model string) bool {
	for _, p := range []string{"o1", "o3", "o4", "gpt-5", "gpt-6"} {
		if strings.HasPrefix(model, p) {
			return true
		}
	}
	return false
}

// estimateTokens guesses what a request will cost before it is sent: four
// bytes a token for the prompt and schema, plus the answer bound (or 512).
func estimateTokens(r goopenai.ChatCompletionRequest) float64 {
	n := 0
	for _, m := range r.Messages {
		n += len(m.Content) + 8
	}
	if f := r.ResponseFormat; f != nil && f.JSONSchema != nil {
		if b, err := f.JSONSchema.Schema.MarshalJSON(); err == nil {
			n += len(b)
		}
	}
	//lint:ignore SA1019 max_tokens is what local servers read (see chatRequest)
	answer := max(r.MaxTokens, r.MaxCompletionTokens)
	if answer == 0 {
		answer = 512
	}
	return float64(n/4 + answer)
}

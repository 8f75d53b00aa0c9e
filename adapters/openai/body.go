package openai

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
)

// setZeroTemperature puts "temperature":0 into a chat request body.
// go-openai v1 cannot send it: ChatCompletionRequest.Temperature is a
// float32 with omitempty, so 0 is dropped and the server's default
// (often 0.7 to 1) applies instead (sashabaranov/go-openai#9, #678; the
// fix, a pointer, is a breaking change still open as #922). The body is a
// JSON object from json.Marshal without a temperature key, so inserting
// the member after the opening brace keeps it valid.
func setZeroTemperature(req *http.Request) error {
	if req.Body == nil {
		return nil
	}
	b, err := io.ReadAll(req.Body)
	_ = req.Body.Close()
	if err != nil {
		return fmt.Errorf("read request body: %w", err)
	}
	if len(b) > 0 && b[0] == '{' && !bytes.Contains(b, []byte(`"temperature":`)) {
		rest := bytes.TrimLeft(b[1:], " \t\r\n")
		sep := ","
		if len(rest) > 0 && rest[0] == '}' {
			sep = ""
		}
		b = append([]byte(`{"temperature":0`+sep), b[1:]...)
	}
	req.Body = io.NopCloser(bytes.NewReader(b))
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	req.ContentLength = int64(len(b))
	return nil
}

// outOfQuota reports a 429 whose body says insufficient_quota: the account
// has no credit, and waiting does not help. The body is kept for the
// caller to read.
func outOfQuota(resp *http.Response) bool {
	if resp.StatusCode != http.StatusTooManyRequests {
		return false
	}
	b, _ := io.ReadAll(io.LimitReader(resp.Body, 64<<10))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(b), resp.Body), resp.Body}
	return quotaBody(b)
}

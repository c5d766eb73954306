package requests

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext/embed"
	"github.com/mcpsearch/mcpsearch/ext/redact"
)

// OpenAI is a model behind an OpenAI-compatible chat completions endpoint:
// vLLM, Ollama, LiteLLM, a Bedrock access gateway, OpenAI itself.
type OpenAI struct {
	// Endpoint is the API's base URL (http://127.0.0.1:8000/v1);
	// /chat/completions is added to it.
	Endpoint string
	Model    string
	// APIKey is sent as "Authorization: Bearer"; empty sends none. Neither
	// errors nor the model's text hold it, in any form package redact
	// knows.
	APIKey string
	Calls  *Calls
}

var _ Model = (*OpenAI)(nil)

func (m *OpenAI) String() string {
	return fmt.Sprintf("model %s at %s", m.Model, redactedURL(m.Endpoint))
}

// chatAnswer is the part of a chat completion read.
type chatAnswer struct {
	Choices []struct {
		Message struct {
			Content *string `json:"content"`
		} `json:"message"`
		FinishReason string `json:"finish_reason"`
	} `json:"choices"`
}

// Complete asks the model for one chat completion.
func (m *OpenAI) Complete(ctx context.Context, system, user string) (string, error) {
	body, err := json.Marshal(map[string]any{
		"model": m.Model,
		"messages": []map[string]string{
			{"role": "system", "content": system},
			{"role": "user", "content": user},
		},
		"temperature": temperature,
	})
	if err != nil {
		return "", err
	}
	answer, err := post(ctx, m.Calls, embed.Call{
		URL:     strings.TrimRight(m.Endpoint, "/") + "/chat/completions",
		Body:    body,
		Prepare: m.authorize,
	})
	if err != nil {
		return "", err
	}
	text, err := chatText(answer)
	// An endpoint that echoes the key in its text would put it in the
	// drafts, the notes and the errors that quote them.
	return redact.New(m.APIKey).Replace(text), err
}

func (m *OpenAI) authorize(req *http.Request) error {
	if m.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+m.APIKey)
	}
	return nil
}

// chatText reads the text of a chat completion's first choice.
func chatText(answer []byte) (string, error) {
	var a chatAnswer
	if err := json.Unmarshal(answer, &a); err != nil {
		return "", fmt.Errorf("the answer is not a chat completion: %w", err)
	}
	if len(a.Choices) == 0 || a.Choices[0].Message.Content == nil {
		return "", errors.New("the answer is not a chat completion: no choices[0].message.content")
	}
	if a.Choices[0].FinishReason == "length" {
		return "", errors.New("the answer was cut at the model's token limit")
	}
	return *a.Choices[0].Message.Content, nil
}

// redactedURL is u without a password, as errors may show it.
func redactedURL(u string) string {
	parsed, err := url.Parse(u)
	if err != nil {
		return "(an endpoint that is no URL)"
	}
	return parsed.Redacted()
}

// temperature lets a model vary its wording without straying.
const temperature = 0.7

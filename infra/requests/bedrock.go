package requests

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/mcpsearch/mcpsearch/ext/embed"
)

// Bedrock is a model of Amazon Bedrock, asked through the Converse API
// (POST /model/MODEL/converse), each call signed with SigV4 (service
// "bedrock") with the credentials of Credentials.
type Bedrock struct {
	Region string
	// Model is a model ID (anthropic.claude-3-5-haiku-20241022-v1:0), an
	// inference profile ID or an ARN.
	Model string
	// Endpoint replaces https://bedrock-runtime.REGION.amazonaws.com (a
	// VPC endpoint; a test's server).
	Endpoint    string
	Credentials aws.CredentialsProvider
	Calls       *Calls
}

var _ Model = (*Bedrock)(nil)

func (m *Bedrock) String() string {
	return fmt.Sprintf("Bedrock model %s at %s", m.Model, redactedURL(m.endpoint()))
}

func (m *Bedrock) endpoint() string {
	if m.Endpoint != "" {
		return strings.TrimRight(m.Endpoint, "/")
	}
	return "https://bedrock-runtime." + m.Region + ".amazonaws.com"
}

// converseAnswer is the part of a Converse answer read.
type converseAnswer struct {
	Output struct {
		Message struct {
			Content []struct {
				Text *string `json:"text"`
			} `json:"content"`
		} `json:"message"`
	} `json:"output"`
	StopReason string `json:"stopReason"`
}

// Complete asks the model for one Converse turn.
func (m *Bedrock) Complete(ctx context.Context, system, user string) (string, error) {
	body, err := json.Marshal(map[string]any{
		"system":          []map[string]string{{"text": system}},
		"messages":        []map[string]any{{"role": "user", "content": []map[string]string{{"text": user}}}},
		"inferenceConfig": map[string]any{"maxTokens": maxAnswerTokens, "temperature": temperature},
	})
	if err != nil {
		return "", err
	}
	answer, err := post(ctx, m.Calls, embed.Call{
		URL:     m.endpoint() + "/model/" + embed.EscapeLabel(m.Model) + "/converse",
		Body:    body,
		Prepare: embed.SignBedrock(m.Credentials.Retrieve, m.Region, body),
	})
	if err != nil {
		return "", err
	}
	return converseText(answer)
}

// maxAnswerTokens leaves room for a few dozen requests.
const maxAnswerTokens = 4096

// converseText reads the text blocks of a Converse answer's message.
func converseText(answer []byte) (string, error) {
	var a converseAnswer
	if err := json.Unmarshal(answer, &a); err != nil {
		return "", fmt.Errorf("the answer is not a Converse answer: %w", err)
	}
	if a.StopReason == "max_tokens" {
		return "", errors.New("the answer was cut at the model's token limit")
	}
	var text strings.Builder
	for _, c := range a.Output.Message.Content {
		if c.Text != nil {
			text.WriteString(*c.Text)
		}
	}
	if text.Len() == 0 {
		return "", errors.New("the answer is not a Converse answer: no output.message.content[].text")
	}
	return text.String(), nil
}

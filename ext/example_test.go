package ext_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/mcpsearch/mcpsearch/ext"
)

// A search for tools of one server that do not modify anything, as the
// server builds it from the params of tools/search.
func ExampleQuery() {
	q := ext.Query{
		Kind:   ext.KindTool,
		Text:   "list failing pipelines",
		Limit:  ext.DefaultLimit,
		Filter: ext.Filter{Servers: []string{"gitlab"}, Annotations: map[string]any{"readOnlyHint": true}},
	}
	filter, _ := json.Marshal(q.Filter)
	fmt.Println(q.Kind.SearchMethod(), "→ items under", q.Kind.ResultKey())
	fmt.Println("filter:", string(filter))
	// Output:
	// tools/search → items under tools
	// filter: {"servers":["gitlab"],"annotations":{"readOnlyHint":true}}
}

// The caller's access travels in the context; a searcher asks it whether
// the caller sees an item restricted to groups and scopes.
func ExampleAccess() {
	ctx := ext.WithAccess(context.Background(), ext.Access{Groups: []string{"ops", "hr", "ops"}})
	a := ext.AccessFrom(ctx)
	fmt.Println("groups:", a.Groups)
	fmt.Println("public item:", a.Sees(nil, nil))
	fmt.Println("item of hr:", a.Sees([]string{"hr"}, nil))
	fmt.Println("item of finance or payroll:read:", a.Sees([]string{"finance"}, []string{"payroll:read"}))
	fmt.Println("cursor key:", a.Key())
	// Output:
	// groups: [hr ops]
	// public item: true
	// item of hr: true
	// item of finance or payroll:read: false
	// cursor key: [["hr","ops"],null]
}

// A method wraps a sentinel with context; errors.Is matches it by its code,
// and the server sends code and message.
func ExampleError() {
	err := fmt.Errorf("%w: limit %d is not between 1 and %d", ext.ErrInvalidParams, 80, ext.MaxLimit)
	fmt.Println(errors.Is(err, ext.ErrInvalidParams), errors.Is(err, ext.ErrMethodNotFound))
	var coded *ext.Error
	if errors.As(err, &coded) {
		fmt.Println(coded.Code, err)
	}
	// Output:
	// true false
	// -32602 invalid params: limit 80 is not between 1 and 50
}

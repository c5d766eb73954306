// Package infra holds the build, bundle and deploy tooling of mcpsearch and
// the tests that check it; the mcpsearch CLI is in infra/cmd/mcpsearch.
package infra

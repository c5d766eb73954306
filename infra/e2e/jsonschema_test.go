package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestJSONSchemaDraftsLoadOnFirstUse: the patched JSON Schema library
// (infra/third_party/jsonschema) compiles its drafts' meta-schemas on the
// first NewCompiler rather than in init, and still checks every schema
// against its draft's meta-schema: an invalid schema of each draft is
// refused, a valid one validates, from many goroutines at once (run under
// the race detector by make test-race).
func TestJSONSchemaDraftsLoadOnFirstUse(t *testing.T) {
	t.Parallel()
	drafts := []string{
		"http://json-schema.org/draft-04/schema#", "http://json-schema.org/draft-06/schema#",
		"http://json-schema.org/draft-07/schema#", "https://json-schema.org/draft/2019-09/schema",
		"https://json-schema.org/draft/2020-12/schema",
	}
	var wg sync.WaitGroup
	errs := make(chan error, 2*len(drafts))
	for _, draft := range drafts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs <- compileAndCheck(draft)
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// compileAndCheck compiles a valid and an invalid schema of draft: the
// valid one must compile and tell a good instance from a bad one, the
// invalid one (a type that is a number) must be refused.
func compileAndCheck(draft string) error {
	c := jsonschema.NewCompiler()
	valid := map[string]any{"$schema": draft, "type": "object", "required": []any{"city"}}
	if err := c.AddResource("valid.json", valid); err != nil {
		return fmt.Errorf("%s: %w", draft, err)
	}
	sch, err := c.Compile("valid.json")
	if err != nil {
		return fmt.Errorf("%s: a valid schema: %w", draft, err)
	}
	if err := sch.Validate(map[string]any{"city": "Paris"}); err != nil {
		return fmt.Errorf("%s: a good instance: %w", draft, err)
	}
	if sch.Validate(map[string]any{}) == nil {
		return fmt.Errorf("%s: an instance without its required field validated", draft)
	}
	invalid := map[string]any{"$schema": draft, "type": 5}
	if err := c.AddResource("invalid.json", invalid); err != nil {
		return fmt.Errorf("%s: %w", draft, err)
	}
	if _, err := c.Compile("invalid.json"); err == nil {
		return fmt.Errorf("%s: a schema whose type is 5 compiled: the meta-schema did not check it", draft)
	}
	return nil
}

// initLine is one package's line of GODEBUG=inittrace=1.
var initLine = regexp.MustCompile(`^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs$`)

// TestServingBinaryInitsLittle: the Lambda function's package
// initialisation (its bootstrap, as mcpsearch package builds it)
// allocates little (counted by GODEBUG=inittrace=1, not
// timed): no package of its dependencies does work at init that the
// function may never need. JSON Schema's meta-schemas compiled in init
// (21,296 allocations, 3-11 ms of every cold start) until the library was
// patched, and bleve's scorch (two Levenshtein automata, 22,597
// allocations) until bundle format 17 read the segment without it (see
// "cold start" in infra/README.md).
func TestServingBinaryInitsLittle(t *testing.T) {
	t.Parallel()
	_, bin := testArtifact(t)
	run := exec.Command(bin, "--version")
	run.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, _ := run.CombinedOutput()
	const most = 2000
	seen := 0
	for _, line := range strings.Split(string(out), "\n") {
		m := initLine.FindStringSubmatch(strings.TrimSpace(line))
		if m == nil {
			continue
		}
		seen++
		allocs, _ := strconv.Atoi(m[3])
		if allocs > most {
			t.Errorf("package %s allocates %d times at init, more than %d", m[1], allocs, most)
		}
	}
	if seen < 50 {
		t.Fatalf("inittrace printed %d packages' lines, want the function's many:\n%s", seen, out)
	}
}

package index

import (
	"os"
	"path/filepath"
	"testing"
)

// modelBudget is the most bytes a learned model may add to the binary
// (issue 25: any model ≤ 32 MB; they are embedded in every function).
const modelBudget = 32 << 20

// TestModelsWithinBudget: every learned model embedded in the index (each
// internal package's model file, and the word vectors) fits the budget,
// and so do all of them together.
func TestModelsWithinBudget(t *testing.T) {
	t.Parallel()
	models, err := filepath.Glob("internal/*/model.*")
	if err != nil {
		t.Fatal(err)
	}
	models = append(models, "internal/text/wordvec.bin")
	if len(models) < 3 {
		t.Fatalf("found %v: want the errand model, the fit model and the word vectors at least", models)
	}
	total := int64(0)
	for _, path := range models {
		info, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if info.Size() > modelBudget {
			t.Errorf("%s: %d bytes, over the budget of %d", path, info.Size(), modelBudget)
		}
		total += info.Size()
		t.Logf("%s: %d bytes", path, info.Size())
	}
	if total > modelBudget {
		t.Errorf("the models together: %d bytes, over the budget of %d", total, modelBudget)
	}
}

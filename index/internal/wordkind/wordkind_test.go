package wordkind

import (
	"strings"
	"testing"
)

// TestDefaultModel: the embedded model reads people, places, occasions
// and manners as said in passing, and the objects, actions and products
// tools deal with as not; a word the vectors do not hold is not judged.
func TestDefaultModel(t *testing.T) {
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"hanna", "delgado", "lisbon", "paris", "dentist", "celebrate", "fancy", "sixty", "panicked", "Cabin"} {
		if !m.SaidInPassing(w) {
			z, _ := m.Score(w)
			t.Errorf("%s: score %.2f, want it read as said in passing", w, z)
		}
	}
	for _, w := range []string{"invoice", "deploy", "translate", "repository", "spreadsheet", "salesforce", "twitter", "screenshot"} {
		if m.SaidInPassing(w) {
			z, _ := m.Score(w)
			t.Errorf("%s: score %.2f, want it read as a word tools deal with", w, z)
		}
	}
	if _, ok := m.Score("xqzvvtrellofoo"); ok || m.SaidInPassing("xqzvvtrellofoo") {
		t.Error("a word the vectors do not hold was judged")
	}
}

func TestFeatures(t *testing.T) {
	f, ok := Features("Invoice")
	g, _ := Features("invoice")
	if !ok || f != g {
		t.Fatalf("Features(Invoice) = %v, %v; want invoice's", ok, f == g)
	}
	for i, x := range f[:NumFeatures-1] {
		if x < -1 || x > 1 {
			t.Errorf("component %d = %v, want within ±1", i, x)
		}
	}
	if f[NumFeatures-1] <= 0 {
		t.Errorf("rank feature %v, want above 0", f[NumFeatures-1])
	}
}

// TestDecode: a file round-trips through Encode; a malformed one is
// refused with a message that names what is wrong.
func TestDecode(t *testing.T) {
	m, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	again, err := Decode(m.Encode())
	if err != nil || *again != *m {
		t.Fatalf("Decode(Encode()) = %v, %v; want the model", err, again == nil)
	}
	for data, want := range map[string]string{
		`{"Weights":[1,2],"Bias":0}`:            "Weights holds 2 figures",
		`{"Weights":[],"Bias":0,"Threshold":1}`: "unknown field",
		`{"Weights":`:                           "unexpected EOF",
	} {
		if _, err := Decode([]byte(data)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Decode(%s) = %v, want an error saying %q", data, err, want)
		}
	}
}

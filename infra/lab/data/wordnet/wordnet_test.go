package wordnet

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// writeDB writes a two-synset WordNet database in the real file format.
func writeDB(t *testing.T) string {
	dir := t.TempDir()
	header := "  1 This software and database is being provided to you, the LICENSEE, by  \n  2 WordNet 3.0 Copyright 2006 by Princeton University.  All rights reserved.  \n"
	files := map[string]string{
		"data.verb":  header + "01000001 40 v 02 buy 0 purchase 0 000 | obtain by purchase\n01000002 40 v 01 take 0 000 | get\n",
		"index.verb": header + "buy v 1 1 @ 1 1 01000001  \npurchase v 1 1 @ 1 1 01000001  \ntake v 1 1 @ 1 1 01000002  \n",
		"data.noun":  header + "02000001 06 n 02 picture 0 image 0 000 | a visual representation\n",
		"index.noun": header + "picture n 1 1 @ 1 1 02000001  \nimage n 1 1 @ 1 1 02000001  \n",
		"data.adj":   header,
		"index.adj":  header,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestDistil(t *testing.T) {
	dir := writeDB(t)
	vocab := map[string]bool{"buy": true, "purchase": true, "picture": true, "take": true}
	table, err := Distil(dir, vocab)
	if err != nil {
		t.Fatal(err)
	}
	if got := table["buy"]; !slices.Equal(got, []string{"purchase"}) {
		t.Errorf("buy: got %v, want [purchase]", got)
	}
	if got := table["picture"]; len(got) != 0 {
		t.Errorf("picture: got %v, want nothing (image is not in the vocabulary)", got)
	}
	licence, err := Licence(dir)
	if err != nil || len(licence) != 2 || !strings.Contains(licence[1], "Princeton") {
		t.Fatalf("licence: got %q, %v", licence, err)
	}
	out := filepath.Join(t.TempDir(), "wordnet.txt")
	if err := table.Write(out, licence); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(out)
	if !strings.Contains(string(data), "# WordNet 3.0 Copyright 2006 by Princeton University.") || !strings.Contains(string(data), "\nbuy purchase\n") {
		t.Errorf("table file:\n%s", data)
	}
}

func TestDistilMissingDatabase(t *testing.T) {
	if _, err := Distil(t.TempDir(), nil); err == nil || !strings.Contains(err.Error(), "data.noun") {
		t.Errorf("got %v, want an error naming the missing file", err)
	}
}

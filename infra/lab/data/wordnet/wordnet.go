// Package wordnet distils WordNet into the compact synonym table that the
// index ships (index/internal/text/wordnet.txt): for each word of a
// vocabulary, the other words of its most frequent sense that are in the
// vocabulary too. It reads the WordNet 3.0 database files (Debian package
// wordnet-base: /usr/share/wordnet); nothing is fetched at run time.
package wordnet

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// parts of speech whose files are read.
var parts = []string{"noun", "verb", "adj"}

// Table maps a word to its synonyms, both in the vocabulary.
type Table map[string][]string

// Licence returns the licence notice at the head of a WordNet index file,
// which must travel with every copy of data derived from the database.
func Licence(dir string) ([]string, error) {
	f, err := os.Open(filepath.Join(dir, "index.noun"))
	if err != nil {
		return nil, fmt.Errorf("wordnet: %w", err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() && strings.HasPrefix(sc.Text(), " ") {
		fields := strings.SplitN(strings.TrimSpace(sc.Text()), " ", 2)
		text := ""
		if len(fields) == 2 {
			text = strings.TrimSpace(fields[1])
		}
		lines = append(lines, text)
	}
	if len(lines) == 0 {
		return nil, fmt.Errorf("wordnet: no licence notice in %s", f.Name())
	}
	return lines, sc.Err()
}

// Distil reads the WordNet files in dir and returns, for each word of vocab
// (lower case), the synonyms of its first sense in each part of speech that
// are in vocab. Multi-word lemmas are left out.
func Distil(dir string, vocab map[string]bool) (Table, error) {
	t := Table{}
	for _, pos := range parts {
		synsets, err := readSynsets(filepath.Join(dir, "data."+pos))
		if err != nil {
			return nil, err
		}
		if err := readFirstSenses(filepath.Join(dir, "index."+pos), synsets, vocab, t); err != nil {
			return nil, err
		}
	}
	for w, syns := range t {
		slices.Sort(syns)
		t[w] = slices.Compact(syns)
	}
	return t, nil
}

// readSynsets maps each synset offset of a data file to its words.
func readSynsets(path string) (map[string][]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("wordnet: %w", err)
	}
	defer f.Close()
	out := map[string][]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, " ") {
			continue // licence header
		}
		fields := strings.Fields(line)
		if len(fields) < 5 {
			continue
		}
		n, err := strconv.ParseInt(fields[3], 16, 32)
		if err != nil || len(fields) < 4+2*int(n) {
			return nil, fmt.Errorf("wordnet: %s: bad synset line %.40q", path, line)
		}
		words := make([]string, 0, n)
		for i := range int(n) {
			words = append(words, strings.ToLower(fields[4+2*i]))
		}
		out[fields[0]] = words
	}
	return out, sc.Err()
}

// readFirstSenses adds, for each vocabulary lemma of an index file, the
// vocabulary words of its first (most frequent) synset.
func readFirstSenses(path string, synsets map[string][]string, vocab map[string]bool, t Table) error {
	f, err := os.Open(path)
	if err != nil {
		return fmt.Errorf("wordnet: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 6 || strings.HasPrefix(sc.Text(), " ") || !vocab[fields[0]] {
			continue
		}
		pointers, err := strconv.Atoi(fields[3])
		if err != nil || len(fields) < 6+pointers+1 {
			continue
		}
		first := fields[4+pointers+2] // after sense_cnt and tagsense_cnt
		for _, w := range synsets[first] {
			if w != fields[0] && vocab[w] && !strings.Contains(w, "_") {
				t[fields[0]] = append(t[fields[0]], w)
			}
		}
	}
	return sc.Err()
}

// Write writes the table as lines "word synonym…", sorted, after the
// WordNet licence as comment lines.
func (t Table) Write(path string, licence []string) error {
	words := make([]string, 0, len(t))
	for w, syns := range t {
		if len(syns) > 0 {
			words = append(words, w)
		}
	}
	slices.Sort(words)
	var b strings.Builder
	b.WriteString("# Distilled from WordNet 3.0 by `mcpsearch wordnet`: a word, then the synonyms of\n")
	b.WriteString("# its most frequent sense that the bundled catalogs use too. WordNet's licence:\n#\n")
	for _, l := range licence {
		b.WriteString(strings.TrimRight("# "+l, " ") + "\n")
	}
	for _, w := range words {
		b.WriteString(w + " " + strings.Join(t[w], " ") + "\n")
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

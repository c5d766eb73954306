package artifact

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext/upstream"
	"github.com/mcpsearch/mcpsearch/index"
)

// modulePath is the path of the module this package belongs to, whose
// ./functions/search Compile builds.
var modulePath = strings.TrimSuffix(reflect.TypeFor[Options]().PkgPath(), "/infra/artifact")

// FindModule returns the root of the mcpsearch module: the first directory
// holding its go.mod, looking from each of starts (directories or files;
// empty ones are skipped) upwards in turn.
func FindModule(starts ...string) (string, error) {
	var tried []string
	for _, start := range starts {
		if start == "" {
			continue
		}
		dir, err := filepath.Abs(start)
		if err != nil {
			return "", err
		}
		tried = append(tried, dir)
		for ; ; dir = filepath.Dir(dir) {
			if isModule(dir) {
				return dir, nil
			}
			if filepath.Dir(dir) == dir {
				break
			}
		}
	}
	return "", fmt.Errorf("no go.mod of module %s in %s or a directory above: run from a clone of the repository, or give a catalog inside one",
		modulePath, strings.Join(tried, ", "))
}

// checkModule fails unless dir ("" means ".") is the root of the module.
func checkModule(dir string) error {
	if !isModule(cmp.Or(dir, ".")) {
		return fmt.Errorf("%s holds no go.mod of module %s: the artifact is built from the repository's ./functions/search", cmp.Or(dir, "."), modulePath)
	}
	return nil
}

func isModule(dir string) bool {
	data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
			return strings.Trim(strings.TrimSpace(rest), `"`) == modulePath
		}
	}
	return false
}

// mkdirAll makes dir and its missing parents and returns the topmost
// directory it made, "" if dir existed: what to remove to leave no trace.
func mkdirAll(dir string) (made string, err error) {
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil || filepath.Dir(d) == d {
			break
		}
		made = d
	}
	return made, os.MkdirAll(dir, 0o755)
}

// stdioServers names the servers of the bundle at dir whose upstream is a
// stdio process: the search function refuses to start those in Lambda, so
// their items are found there but cannot be called.
func stdioServers(dir string) ([]string, error) {
	servers, err := index.ReadServers(dir)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range servers {
		var u struct {
			Transport string `json:"transport"`
		}
		if json.Unmarshal(s.Upstream, &u) == nil && u.Transport == upstream.TransportStdio {
			out = append(out, s.Name)
		}
	}
	return out, nil
}

// Package bench holds the harnesses behind `mcpsearch-lab bench`: catalogs
// scaled from a real one, warm search latency and memory, and cold start
// through the Lambda runtime API emulator.
package bench

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ScaleCatalog writes into dst a catalog of exactly tools tools made by
// copying the server files of src again and again under new server names
// ("gitlab", "gitlab-2", …); the last copy is cut to size. Prompts,
// resources and templates come along with their servers.
func ScaleCatalog(src, dst string, tools int) error {
	files, err := scaleFiles(src, dst)
	if err != nil {
		return err
	}
	written := 0
	for copyN := 1; written < tools; copyN++ {
		for _, f := range files {
			if written >= tools {
				break
			}
			n, err := copyServer(f, dst, copyN, tools-written)
			if err != nil {
				return err
			}
			written += n
		}
	}
	return nil
}

// ScaleServers writes into dst a catalog of exactly servers servers, made
// as ScaleCatalog's are but of whole server files: the files of src in
// name order, again and again under new names, until there are enough.
func ScaleServers(src, dst string, servers int) error {
	files, err := scaleFiles(src, dst)
	if err != nil {
		return err
	}
	for i := range servers {
		if _, err := copyServer(files[i%len(files)], dst, i/len(files)+1, math.MaxInt); err != nil {
			return err
		}
	}
	return nil
}

// scaleFiles lists the server files of src in name order and makes dst.
func scaleFiles(src, dst string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(src, "*.json"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("scale: no catalog files in %s", src)
	}
	slices.Sort(files)
	return files, os.MkdirAll(dst, 0o755)
}

// copyServer writes copy n of a server file, with at most room tools, and
// returns how many tools it holds.
func copyServer(file, dst string, n, room int) (int, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0, err
	}
	var srv map[string]any
	if err := json.Unmarshal(data, &srv); err != nil {
		return 0, fmt.Errorf("scale: %s: %w", file, err)
	}
	name, _ := srv["server"].(string)
	if n > 1 {
		name = fmt.Sprintf("%s-%d", name, n)
	}
	srv["server"] = name
	tools, _ := srv["tools"].([]any)
	if len(tools) > room {
		tools = tools[:room]
		srv["tools"] = tools
	}
	out, err := json.Marshal(srv)
	if err != nil {
		return 0, err
	}
	base := strings.TrimSuffix(filepath.Base(file), ".json")
	return len(tools), os.WriteFile(filepath.Join(dst, fmt.Sprintf("%s-%d.json", base, n)), out, 0o644)
}

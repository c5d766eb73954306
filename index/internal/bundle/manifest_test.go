package bundle

import "testing"

// TestVersionCoversTheBuild: the index version covers the build identity,
// so new build-time tables give a catalog a new version.
func TestVersionCoversTheBuild(t *testing.T) {
	t.Parallel()
	if versionOf("catalog-v", "build-a") == versionOf("catalog-v", "build-b") {
		t.Error("another build kept the index version")
	}
}

package index

import "github.com/mcpsearch/mcpsearch/index/internal/errand"

// ErrandModelFile is where the embedded errand model lives in the
// repository (package index/internal/errand), which mcpsearch-lab errandmodel
// writes.
const ErrandModelFile = "index/internal/errand/model.bin"

// TrainErrandModel trains the model that tells a request for software
// from an everyday errand (the no-match test's errand-model) on the texts
// of both, seeded, and returns the model file's bytes: the same texts give
// the same bytes.
func TrainErrandModel(software, errands []string, seed uint64) []byte {
	w, b := errand.Train(software, errands, seed)
	return errand.Encode(w, b)
}

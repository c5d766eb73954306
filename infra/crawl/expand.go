package crawl

import (
	"errors"
	"fmt"
	"os"

	"github.com/mcpsearch/mcpsearch/ext/upstream"
)

// Expand returns s with every ${VAR} reference resolved by lookup
// (os.LookupEnv if nil). A reference to an unset variable is an error
// naming the field and the variable; it never holds the values.
func (s *ServerConfig) Expand(lookup func(string) (string, bool)) (*ServerConfig, error) {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	cfg, err := s.Config.Expand(lookup)
	var unset *upstream.UnsetVarError
	if errors.As(err, &unset) {
		return nil, fmt.Errorf("%s.%s", s.where, unset)
	}
	if err != nil {
		return nil, err
	}
	out := *s
	out.Config = *cfg
	return &out, nil
}

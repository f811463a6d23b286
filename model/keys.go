package model

import (
	"maps"
	"slices"
)

// sortedKeys lists a map's keys in order, so that nothing depends on Go's
// random map iteration.
func sortedKeys(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}

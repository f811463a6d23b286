package action

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// ParseReplicas reads a replica count typed in a dialog: a whole number
// from 0 to what spec.replicas, a 32-bit integer, holds. A number past that
// is refused, never wrapped into another count the plan would then show.
func ParseReplicas(text string) (int32, error) {
	text = strings.TrimSpace(text)
	n, err := strconv.ParseInt(text, 10, 64)
	switch {
	case err != nil && !errors.Is(err, strconv.ErrRange):
		return 0, fmt.Errorf("replicas must be a whole number, such as 5")
	case n < 0 || strings.HasPrefix(text, "-"):
		return 0, fmt.Errorf("replicas must be 0 or more, not %s", text)
	case err != nil || n > math.MaxInt32:
		return 0, fmt.Errorf("%s replicas is more than the API accepts (spec.replicas is at most %d)", text, math.MaxInt32)
	}
	return int32(n), nil
}

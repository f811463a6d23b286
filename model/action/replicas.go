package action

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"rollscope/model/manifest"
)

// CheckReplicas refuses a replica count below 0 or above what the API
// accepts, spec.replicas being a 32-bit integer (manifest.MaxReplicas).
// Kubernetes sets no lower limit (its scalability envelope, 150,000 pods in
// a cluster, is not a validation rule), and every action that changes a
// cluster asks first, its plan showing the count, so a slip of the finger is
// caught there rather than by a cap here.
func CheckReplicas(n int64) error { return checkReplicas(n, strconv.FormatInt(n, 10)) }

// ParseReplicas reads a replica count typed in a dialog, refused as
// CheckReplicas refuses one. A number past spec.replicas' range is refused,
// never wrapped into another count the plan would then show.
func ParseReplicas(text string) (int32, error) {
	text = strings.TrimSpace(text)
	// Past int64's range ParseInt answers its bound with ErrRange, which
	// the check refuses like any count out of range, in the digits typed.
	n, err := strconv.ParseInt(text, 10, 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, errors.New("replicas must be a whole number, such as 5")
	}
	if err := checkReplicas(n, text); err != nil {
		return 0, err
	}
	return int32(n), nil
}

// checkReplicas is CheckReplicas of n, written as typed in its words.
func checkReplicas(n int64, typed string) error {
	switch {
	case n < 0:
		return fmt.Errorf("replicas must be 0 or more, not %s", typed)
	case n > manifest.MaxReplicas:
		return fmt.Errorf("%s replicas is more than the API accepts (spec.replicas is at most %d)", typed, manifest.MaxReplicas)
	}
	return nil
}

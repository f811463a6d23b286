package rollingupdate

import (
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model"
)

// Input is what the rolling-update command was given: its arguments (RC
// and optionally NEXT) and flags, before they are checked.
type Input struct {
	Args                         []string
	Image, Container, PullPolicy string
	UpdatePeriod, PollInterval   time.Duration
	Timeout                      time.Duration
	DeploymentKey                string
	Rollback                     bool
}

// NewRequest checks in, the way kubectl's rolling-update checked its flags,
// and makes the request: every refusal is a bad request whose text names
// the flag to change.
func NewRequest(in Input) (Request, error) {
	req := Request{
		Old:             in.Args[0],
		Image:           in.Image,
		Container:       in.Container,
		ImagePullPolicy: in.PullPolicy,
		DeploymentKey:   in.DeploymentKey,
		UpdatePeriod:    Duration(in.UpdatePeriod),
		PollInterval:    Duration(in.PollInterval),
		Rollback:        in.Rollback,
	}
	if len(in.Args) == 2 {
		req.Next = in.Args[1]
		if req.Next == req.Old {
			return req, badInput("NEXT %q must differ from RC: leave it out to keep the name %q", req.Next, req.Old)
		}
	}
	// The legacy command's fixed limits.
	surge, unavailable := intstr.FromInt32(1), intstr.FromInt32(0)
	req.MaxSurge, req.MaxUnavailable = &surge, &unavailable
	switch {
	case in.UpdatePeriod <= 0:
		return req, badInput("--update-period %v must be positive, such as 1m", in.UpdatePeriod)
	case in.PollInterval <= 0:
		return req, badInput("--poll-interval %v must be positive, such as 3s", in.PollInterval)
	case in.Timeout < 0:
		return req, badInput("--timeout %v is negative: give a duration such as 5m, or 0 to wait for ever", in.Timeout)
	case in.DeploymentKey == "":
		return req, badInput("--deployment-label-key must not be empty")
	case in.Rollback && in.Image != "":
		return req, badInput("--rollback and --image do not go together: --rollback returns to the image RC had")
	}
	if in.Image != "" {
		// The same check as the console's RC dialog, before anything runs.
		if err := model.CheckImage(in.Image); err != nil {
			return req, badInput("--image: %v", err)
		}
	}
	switch in.PullPolicy {
	case "", "Always", "Never", "IfNotPresent":
	default:
		return req, badInput("--image-pull-policy %q: use Always, Never or IfNotPresent", in.PullPolicy)
	}
	return req, nil
}

// inputError is a bad request whose text is only what the operator reads:
// the flags to change, without the "bad request" prefix of the updater's own.
type inputError struct{ msg string }

func (e inputError) Error() string        { return e.msg }
func (e inputError) Is(target error) bool { return target == errBadRequest }

func badInput(format string, args ...any) error {
	return inputError{fmt.Sprintf(format, args...)}
}

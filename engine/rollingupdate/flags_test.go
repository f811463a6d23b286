package rollingupdate_test

import (
	"testing"
	"time"

	. "rollscope/engine/rollingupdate"
)

// Each refused input is a bad request whose text is the operator's line,
// naming the flag to change, with nothing in front of it.
func TestNewRequestRefusesBadInput(t *testing.T) {
	ok := Input{Args: []string{"web"}, Image: "nginx:1.27", UpdatePeriod: time.Minute, PollInterval: 3 * time.Second, DeploymentKey: DefaultDeploymentKey}
	for _, tc := range []struct {
		change func(*Input)
		want   string
	}{
		{func(in *Input) { in.Args = []string{"web", "web"} }, `NEXT "web" must differ from RC: leave it out to keep the name "web"`},
		{func(in *Input) { in.UpdatePeriod = 0 }, "--update-period 0s must be positive, such as 1m"},
		{func(in *Input) { in.PollInterval = -time.Second }, "--poll-interval -1s must be positive, such as 3s"},
		{func(in *Input) { in.Timeout = -time.Minute }, "--timeout -1m0s is negative: give a duration such as 5m, or 0 to wait for ever"},
		{func(in *Input) { in.DeploymentKey = "" }, "--deployment-label-key must not be empty"},
		{func(in *Input) { in.Rollback = true }, "--rollback and --image do not go together: --rollback returns to the image RC had"},
		{func(in *Input) { in.PullPolicy = "Sometimes" }, `--image-pull-policy "Sometimes": use Always, Never or IfNotPresent`},
	} {
		in := ok
		tc.change(&in)
		_, err := NewRequest(in)
		if err == nil || err.Error() != tc.want || !IsBadRequest(err) {
			t.Errorf("NewRequest(%+v) = %v; want the bad request %q", in, err, tc.want)
		}
	}
	req, err := NewRequest(Input{Args: []string{"web", "web-next"}, Image: "nginx:1.27", UpdatePeriod: time.Minute, PollInterval: time.Second, DeploymentKey: "k"})
	if err != nil || req.Old != "web" || req.Next != "web-next" || req.MaxSurge.IntValue() != 1 || req.MaxUnavailable.IntValue() != 0 {
		t.Errorf("NewRequest = %+v, %v; want web → web-next with kubectl's surge 1, unavailable 0", req, err)
	}
}

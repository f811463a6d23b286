package forecast_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes"

	"rollscope/engine/argo"
)

// atRest is a scenario text without its scripted actions: the Rollout
// stays on v1.
func atRest(text string) string { return text[:strings.Index(text, "actions:")] }

// then is a scenario text with one more scripted action.
func then(text, action string) string { return text + "  - " + action + "\n" }

// timedCanary is canaryScenario whose first pause is a minute long: a
// pause sent during it holds the canary, a resume lets it go on.
var timedCanary = strings.Replace(canaryScenario, "{setWeight: 20}, {pause: {}}", "{setWeight: 20}, {pause: {duration: 60s}}", 1)

func restart(at time.Duration) func(context.Context, kubernetes.Interface, argo.Target) (string, error) {
	return func(ctx context.Context, c kubernetes.Interface, t argo.Target) (string, error) {
		return argo.Restart(ctx, c, t, epoch.Add(at))
	}
}

func scaleTo(n int32) func(context.Context, kubernetes.Interface, argo.Target) (string, error) {
	return func(ctx context.Context, c kubernetes.Interface, t argo.Target) (string, error) {
		return argo.Scale(ctx, c, t, n)
	}
}

// The forecast of every other Rollout action — set image mid-rollout and
// at rest, restart, scale up and down mid-rollout, retry after an abort,
// pause and resume — on a canary and on a blue/green Rollout is what the
// embedded cluster then does, as for promote, abort and undo.
func TestEveryRolloutActionsForecastMatchesTheEmbeddedCluster(t *testing.T) {
	manual := blueGreenScenario(", autoPromotionEnabled: false")
	cases := []struct {
		name, scenario string
		at             time.Duration
		send           func(context.Context, kubernetes.Interface, argo.Target) (string, error)
		says           string
	}{
		{"canary/setImage mid-canary", canaryScenario, 60 * time.Second, setImageV3, "then pauses at step 2 of 6 until promoted"},
		{"canary/setImage at rest", atRest(canaryScenario), 30 * time.Second, setImageV3, "then pauses at step 2 of 6 until promoted"},
		{"canary/restart", atRest(canaryScenario), 30 * time.Second, restart(30 * time.Second), "about "},
		{"canary/scale up mid-canary", canaryScenario, 60 * time.Second, scaleTo(8), "then pauses at step 2 of 6 until promoted"},
		{"canary/scale down mid-canary", canaryScenario, 60 * time.Second, scaleTo(3), "then pauses at step 2 of 6 until promoted"},
		{"canary/retry after abort", then(canaryScenario, "{at: 30s, abort: rollout/checkout}"), 90 * time.Second, argo.Retry.Send, "then pauses at step 2 of 6 until promoted"},
		{"canary/pause", timedCanary, 40 * time.Second, argo.Pause.Send, "then holds: paused (resume to go on)"},
		{"canary/resume", then(timedCanary, "{at: 30s, pause: rollout/checkout}"), 60 * time.Second, argo.Resume.Send, "then pauses at step 6 of 6 until promoted"},
		{"blue/green/setImage at rest", atRest(manual), 20 * time.Second, setImageV3, "then pauses before the active Service switches, until promoted"},
		{"blue/green/restart", atRest(manual), 20 * time.Second, restart(20 * time.Second), "about "},
		{"blue/green/scale up mid-rollout", manual, 20 * time.Second, scaleTo(5), "then pauses before the active Service switches, until promoted"},
		{"blue/green/scale down mid-rollout", manual, 20 * time.Second, scaleTo(2), "then pauses before the active Service switches, until promoted"},
		{"blue/green/retry after abort", then(manual, "{at: 20s, abort: rollout/checkout}"), 60 * time.Second, argo.Retry.Send, "then pauses before the active Service switches, until promoted"},
		{"blue/green/pause", atRest(blueGreenScenario(", autoPromotionSeconds: 30")) + "actions:\n  - {at: 10s, setImage: {target: rollout/checkout, image: \"shop/checkout:v2\"}}\n", 20 * time.Second, argo.Pause.Send, "then holds: paused (resume to go on)"},
		{"blue/green/resume", then(manual, "{at: 12s, pause: rollout/checkout}"), 30 * time.Second, argo.Resume.Send, "then pauses before the active Service switches, until promoted"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, o := forecastThenDo(t, tc.scenario, tc.at, argoChange(tc.send))
			compare(t, f, o, tc.says)
		})
	}
}

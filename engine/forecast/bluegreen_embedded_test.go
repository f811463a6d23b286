package forecast_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes"

	"rollscope/engine/argo"
	"rollscope/internal/rolloutfixture"
)

// blueGreenScenario is a blue/green Rollout of three pods with active and
// preview Services, given image v2 at 10s; strategy is what its blueGreen
// adds to the two Services.
func blueGreenScenario(strategy string) string {
	return rolloutHeader + `objects: |
` + rolloutfixture.BlueGreen(3, strategy) + `actions:
  - {at: 10s, setImage: {target: rollout/checkout, image: "shop/checkout:v2"}}
`
}

func setImageV3(ctx context.Context, c kubernetes.Interface, t argo.Target) (string, error) {
	return argo.SetImage(ctx, c, t, "web", "shop/checkout:v3")
}

func undo(ctx context.Context, c kubernetes.Interface, t argo.Target) (string, error) {
	return argo.Undo(ctx, c, t, 0)
}

// The forecast of promote, abort, undo and set image on a blue/green
// Rollout waiting at its BlueGreenPause — without auto-promotion, with
// autoPromotionSeconds, with a short scaleDownDelaySeconds — is what the
// embedded cluster then does: the same scalings, peak, fewest available,
// time and stop, and the active Service switching, and the old
// ReplicaSet scaled down, when the forecast says.
func TestBlueGreenForecastMatchesTheEmbeddedCluster(t *testing.T) {
	shapes := []struct{ name, strategy string }{
		{"manual", ", autoPromotionEnabled: false"},
		{"autoPromotionSeconds", ", autoPromotionSeconds: 30"},
		{"scaleDownDelaySeconds", ", autoPromotionEnabled: false, scaleDownDelaySeconds: 5"},
	}
	acts := []struct {
		name string
		send func(context.Context, kubernetes.Interface, argo.Target) (string, error)
		// says is what the forecast says, by shape (manual first).
		says [3]string
	}{
		{"promote", argo.Promote.Send, [3]string{
			"(scaleDownDelaySeconds 30)", "(scaleDownDelaySeconds 30)", "(scaleDownDelaySeconds 5)"}},
		{"abort", argo.Abort.Send, [3]string{
			"then is aborted, back on its stable pods", "then is aborted, back on its stable pods", "then is aborted"}},
		// promote at once; setImage by itself after autoPromotionSeconds.
		{"undo", undo, [3]string{"the active Service stays on", "the active Service stays on", "the active Service stays on"}},
		{"setImage", setImageV3, [3]string{
			"then pauses before the active Service switches, until promoted", "(autoPromotionSeconds 30)",
			"then pauses before the active Service switches, until promoted"}},
	}
	for i, sh := range shapes {
		for _, a := range acts {
			t.Run(sh.name+"/"+a.name, func(t *testing.T) {
				f, o := forecastThenDo(t, blueGreenScenario(sh.strategy), 20*time.Second, argoChange(a.send))
				compare(t, f, o, a.says[i])
				if f.BlueGreen == nil {
					t.Fatalf("the forecast of a blue/green Rollout says nothing of its Services: %s", f)
				}
				if sw := f.BlueGreen; sw.Switched != o.moved || !near(sw.Active, o.switched) || sw.To != o.to || !near(sw.ScaledDown, o.scaledDown) || sw.Old != o.old {
					t.Errorf("forecast %s; the cluster switched to %q after %v and scaled %q down after %v", sw, o.to, o.switched, o.old, o.scaledDown)
				}
				if strings.Contains(f.String(), "\n") {
					t.Errorf("the forecast is more than one line: %q", f)
				}
			})
		}
	}
}

package perform_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model"
	"rollscope/model/action"
)

// heldForecasts are the requests of every Deployment action whose
// confirmation carries a forecast, on the quiet canary while a guided
// canary of v9 holds its first step (revision 1 is v2, stable).
var heldForecasts = map[action.Name]action.Request{
	action.SetImage: {Action: action.SetImage, Container: "php-redis", Image: "gcr.io/google-samples/gb-frontend:v10"},
	action.Undo:     {Action: action.Undo, Revision: 1},
	action.Abort:    {Action: action.Abort},
}

// Every forecast of a Deployment a guided canary holds is made with the
// Deployment's own settings, the ones every way out of the hold puts back:
// it is the forecast of the same Deployment, pods and ReplicaSets with no
// hold on it, and never mentions the hold's minReadySeconds or deadline.
func TestForecastsOfAHeldCanaryUseTheDeploymentsOwnSettings(t *testing.T) {
	cl, p := rolledOut(t)
	ctx := context.Background()
	api := cl.Client.AppsV1().Deployments("default")
	held := holdCanary(t, cl, p)

	forecasts := map[action.Name]string{}
	for _, s := range action.Specs() {
		if !s.Forecast || s.On != action.OnDeployment {
			// Only a Deployment runs a guided canary.
			continue
		}
		r, ok := heldForecasts[s.Name]
		if !ok {
			t.Errorf("%s forecasts a Deployment's rollout but has no case here", s.Name)
			continue
		}
		r.Namespace, r.Name = "default", "frontend"
		got, err := p.Forecast(ctx, r)
		if err != nil {
			t.Errorf("forecast of %s on a held canary: %v", s.Name, err)
			continue
		}
		for _, hold := range []string{
			"596523h", "2147483646", "2147483647", // the hold's minReadySeconds and deadline
			"0 waves", "holds part way", // a rollout read as waiting on the hold
		} {
			if strings.Contains(got, hold) {
				t.Errorf("forecast of %s on a held canary says %q: %s", s.Name, hold, got)
			}
		}
		if !strings.Contains(got, "minReadySeconds 5s") {
			t.Errorf("forecast of %s does not wait out the Deployment's own minReadySeconds 5s: %s", s.Name, got)
		}
		forecasts[s.Name] = got
	}

	// The same Deployment with no hold: its own settings, no canary.
	own := model.CanaryUnheld(held)
	model.DropCanary(&own.ObjectMeta)
	if _, err := api.Update(ctx, own, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	for n, held := range forecasts {
		r := heldForecasts[n]
		r.Namespace, r.Name = "default", "frontend"
		unheld, err := p.Forecast(ctx, r)
		if err != nil {
			t.Errorf("forecast of %s with no hold: %v", n, err)
			continue
		}
		if held != unheld {
			t.Errorf("forecast of %s:\n held:   %s\n unheld: %s", n, held, unheld)
		}
	}
	if t.Failed() {
		t.Log(fmt.Sprint(forecasts))
	}
}

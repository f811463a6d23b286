package perform_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"rollscope/engine/perform"
	"rollscope/model/action"
)

// Config.Explain rewords what the console's four questions answer with an
// error, once each — an undo's own preview is not reworded twice — and
// nothing when there is no error.
func TestExplainRewordsEveryAnswerOnce(t *testing.T) {
	c, _ := memCluster(t, web())
	explained := 0
	p := perform.New(perform.Config{Client: c, Explain: func(err error) error {
		if err == nil {
			return nil
		}
		explained++
		return errors.New("explained: " + err.Error())
	}})
	ctx := context.Background()
	if _, err := p.Send(ctx, action.Request{Action: action.Pause, Namespace: "default", Name: "web"}); err != nil || explained != 0 {
		t.Fatalf("pause: %v, %d explained", err, explained)
	}
	checks := []func() error{
		func() error {
			_, err := p.Send(ctx, action.Request{Action: action.Pause, Namespace: "default", Name: "gone"})
			return err
		},
		func() error {
			_, err := p.Send(ctx, action.Request{Action: action.Undo, Namespace: "default", Name: "web", Revision: 9, ResumeFirst: true})
			return err
		},
		func() error {
			_, err := p.Containers(ctx, "default", "gone")
			return err
		},
		func() error {
			_, err := p.UndoPreview(ctx, "default", "gone", 1)
			return err
		},
		func() error {
			_, err := p.Forecast(ctx, action.Request{Action: action.Scale, Namespace: "default", Name: "gone", Replicas: 3})
			return err
		},
	}
	for i, check := range checks {
		explained = 0
		err := check()
		if err == nil || explained != 1 || strings.Count(err.Error(), "explained: ") != 1 {
			t.Errorf("answer %d: %v, explained %d times", i, err, explained)
		}
	}
}

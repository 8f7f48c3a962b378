package main

import (
	"flag"
	"fmt"
	"strings"

	"github.com/fumibako/fumibako/internal/schedule"
)

func init() {
	register(&command{name: "schedule", args: "サブコマンド", summary: "毎日決まった時刻にインデックスを作成するよう、OS の予定に登録する", order: 70,
		about: "Windows はタスク スケジューラ（schtasks）、Linux は systemd のユーザー タイマー（なければ crontab）、macOS は launchd に登録します。"})
	register(&command{name: "schedule install", args: "--at 時:分", summary: "毎日その時刻に fumibako index を実行するよう登録する（登録済みなら置き換える）", order: 1,
		examples: []string{"fumibako schedule install --at 02:00"}, setup: setupScheduleInstall})
	register(&command{name: "schedule show", summary: "登録されている予定を表示する", order: 2, setup: setupScheduleShow})
	register(&command{name: "schedule remove", summary: "登録した予定を外す", order: 3, setup: setupScheduleRemove})
}

// Messages of schedule.
const (
	msgSchedBadAt     = "--at には 02:00 のように 時:分 を指定してください: %s"
	msgSchedInstalled = "毎日 %s に fumibako index を実行するよう登録しました（%s）。"
	msgSchedRemoved   = "予定を外しました（%s）。"
	msgSchedNone      = "予定は登録されていません（%s）。"
	msgSchedFailed    = "予定を登録・変更できませんでした（%s）: %s"
)

func setupScheduleInstall(fs *flag.FlagSet) func(*env, []string) error {
	at := fs.String("at", "02:00", "実行する`時刻`（時:分、毎日）")
	return func(e *env, _ []string) error {
		h, m, ok := schedule.ParseAt(*at)
		if !ok {
			return usagef("schedule install", msgSchedBadAt, *at)
		}
		s, err := e.scheduler()
		if err != nil {
			return err
		}
		if err := s.Install(h, m); err != nil {
			return fatalf(msgSchedFailed, s.Kind(), err)
		}
		fmt.Fprintf(e.stdout, msgSchedInstalled+"\n", fmt.Sprintf("%02d:%02d", h, m), s.Kind())
		return nil
	}
}

func setupScheduleShow(*flag.FlagSet) func(*env, []string) error {
	return func(e *env, _ []string) error {
		s, err := e.scheduler()
		if err != nil {
			return err
		}
		out, _ := s.Show()
		if out == "" {
			fmt.Fprintf(e.stdout, msgSchedNone+"\n", s.Kind())
			return nil
		}
		fmt.Fprintf(e.stdout, "%s\n%s\n", s.Kind(), strings.TrimRight(out, "\n"))
		return nil
	}
}

func setupScheduleRemove(*flag.FlagSet) func(*env, []string) error {
	return func(e *env, _ []string) error {
		s, err := e.scheduler()
		if err != nil {
			return err
		}
		had, err := s.Remove()
		if err != nil {
			return fatalf(msgSchedFailed, s.Kind(), err)
		}
		if !had {
			fmt.Fprintf(e.stdout, msgSchedNone+"\n", s.Kind())
			return nil
		}
		fmt.Fprintf(e.stdout, msgSchedRemoved+"\n", s.Kind())
		return nil
	}
}

// scheduler builds the platform's scheduler for the selected workspace.
func (e *env) scheduler() (*schedule.Scheduler, error) {
	ws, err := e.workspace()
	if err != nil {
		return nil, err
	}
	s, err := schedule.New(ws.Root)
	if err != nil {
		return nil, err
	}
	s.ToolEncoding = codePages[consoleCodePage()] // schtasks writes in the console's code page
	return s, nil
}

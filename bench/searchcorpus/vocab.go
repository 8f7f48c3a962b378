package searchcorpus

import "strings"

// Vocabulary of the generated text: Japanese business words, names and
// English words. The rare probe words below never occur in it.
var (
	jaNouns = strings.Fields(`見積 見積書 請求書 納品書 発注 受注 契約 契約書 納期 確認 確定 変更 追加 削除 予算 実績 売上 利益 原価 単価 数量 金額 合計 小計 消費税
	担当 担当者 部長 課長 主任 営業 経理 総務 人事 開発 製造 品質 管理 在庫 出荷 入荷 物流 倉庫 店舗 顧客 取引先 会議 議事録 報告 報告書 資料 提案
	提案書 企画 計画 予定 進捗 課題 対応 対策 改善 効果 分析 調査 結果 要望 仕様 仕様書 設計 試験 検査 保守 運用 障害 問題 原因 手順 規程 申請
	承認 決裁 稟議 支払 入金 振込 請求 精算 経費 交通費 出張 研修 採用 評価 目標 方針 戦略 市場 競合 価格 商品 製品 部品 材料 設備 工場 本社
	支店 営業所 事業部 部署 年度 上期 下期 四半期 月次 週次 日報 月報 年報 案件 見込 受付 問合せ 回答 連絡 調整 打合せ 訪問 納入 検収 保証 修理
	交換 返品 値引 割引 条件 期限 期日 締切 開始 終了 完了 中止 延期 再開 更新 登録 解除 設定 変更点 差異 明細 一覧 集計 比較 前年比 達成率`)
	jaVerbs = strings.Fields(`します しました いたします いたしました お願いします ください 予定です 完了しました 確認中です 対応します 検討します
	ご確認ください 共有します 報告します 調整中です 承知しました 依頼します 送付します 修正しました 追加しました`)
	jaParticles = strings.Fields(`の を に は が と で へ から まで より や も`)
	surnames    = strings.Fields(`佐藤 鈴木 高橋 田中 伊藤 渡辺 山本 中村 小林 加藤 吉田 山田 佐々木 山口 松本 井上 木村 林 斎藤 清水 山崎 森 池田 橋本 阿部 石川 前田 藤田 小川 後藤`)
	companies   = strings.Fields(`山田商事 東京物産 大阪精機 北海産業 九州電装 中部化学 関西運輸 四国製紙 東北食品 横浜電機 名古屋工業 神戸貿易 京都設計 広島鋼材 仙台建設`)
	places      = strings.Fields(`東京都 大阪府 愛知県 北海道 福岡県 神奈川県 京都府 兵庫県 埼玉県 千葉県 広島県 宮城県`)
	katakana    = strings.Fields(`システム サーバー データ ファイル プロジェクト スケジュール ミーティング レポート マニュアル サポート メンテナンス キャンペーン
	コスト リスク サービス プラン パートナー クライアント ネットワーク セキュリティ アカウント パスワード バージョン テスト リリース`)
	enWords = strings.Fields(`the of and to in for on with by from at as is are was were be this that these those it its we our you your they their
	order invoice delivery quote quotation contract schedule meeting report review update status issue request response customer supplier
	product price amount total payment account budget sales cost margin project plan task team manager department office branch region
	market service support system server database network release version test quality inspection shipment stock warehouse inventory
	please confirm attached document following below above note changes revised final draft approved pending completed cancelled delayed
	monday tuesday wednesday thursday friday january february march april may june july august september october november december`)
	units = strings.Fields(`個 台 箱 式 枚 本 件 kg 円 セット`)
)

// Probe words planted a known number of times, and words that never occur.
const (
	RareJa   = "鬱金香"          // rare characters
	RareEn   = "Quetzalcoatl" // English, rare
	RareMix  = "確定見積書番号"      // common characters, rare sequence
	Absent   = "存在しない語句"
	CommonJa = "株式会社" // in company names: very frequent
	OneChar  = "円"
	TwoChar  = "見積"
)

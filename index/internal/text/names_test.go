package text

import (
	"strings"
	"testing"
)

// TestSplitName runs the splitter on names from the bundled catalogs and
// the benchmarks.
func TestSplitName(t *testing.T) {
	for _, test := range []struct{ name, want string }{
		{"browser_take_screenshot", "browser take screenshot"},
		{"create_merge_request", "create merge request"},
		{"getURLs", "get urls"},
		{"HTTPServerConfig", "http server config"},
		{"SEOTool", "seo tool"},
		{"ResearchHelper", "research helper"},
		{"takeAppScreenshot", "take app screenshot"},
		{"fetchAutomationScreenshots", "fetch automation screenshots"},
		{"mergeCollectionFork", "merge collection fork"},
		{"updatePullRequest", "update pull request"},
		{"get-adhoc-call-transcript-content", "get adhoc call transcript content"},
		{"list-adhoc-call-transcripts", "list adhoc call transcripts"},
		{"call-actor", "call actor"},
		{"asana_list_workspaces", "asana list workspaces"},
		{"aggregate-db", "aggregate db"},
		{"acr_registry_repository_list", "acr registry repository list"},
		{"foundry_openai_chat-completions-create", "foundry openai chat completions create"},
		{"appconfig_kv_lock_set", "appconfig kv lock set"},
		{"kusto_cluster_list", "kusto cluster list"},
		{"cosmos_database_container_item_query", "cosmos database container item query"},
		{"s3Bucket", "s3 bucket"},
		{"ec2_instance_list", "ec2 instance list"},
		{"listEC2Instances", "list ec2 instances"},
		{"OAuthToken", "o auth token"},
		{"getHTTPResponseCode", "get http response code"},
		{"parseJSON", "parse json"},
		{"JSONParser", "json parser"},
		{"listAPIs", "list apis"},
		{"IDs", "ids"},
		{"userID", "user id"},
		{"v2beta", "v2beta"},
		{"2fa_enable", "2fa enable"},
		{"bing-cn-mcp::bing_search", "bing cn mcp bing search"},
		{"MixerBox_WebSearchG_web_search", "mixer box web search g web search"},
		{"total_query_meta_search_engine", "total query meta search engine"},
		{"Google_Ads_Shopping_Microsoft_Ads_pay_per_click", "google ads shopping microsoft ads pay per click"},
		{"airqualityforeast", "airqualityforeast"},
		{"scraping_browser_screenshot", "scraping browser screenshot"},
		{"generate_word_cloud_chart", "generate word cloud chart"},
		{"get-weread-rank", "get weread rank"},
		{"k8s.pods.list", "k8s pods list"},
		{"mcp-github__merge_pull_request", "mcp github merge pull request"},
		{"playwright__browser_take_screenshot", "playwright browser take screenshot"},
		{"createPR", "create pr"},
		{"PRs", "prs"},
	} {
		if got := strings.Join(SplitName(test.name), " "); got != test.want {
			t.Errorf("SplitName(%q) = %q, want %q", test.name, got, test.want)
		}
	}
}

func TestAnalyzerKeepsWholeName(t *testing.T) {
	got := strings.Join(Analyze("browser_take_screenshot"), " ")
	if want := "browser take screenshot browsertakescreenshot"; got != want {
		t.Errorf("analyze: got %q, want %q", got, want)
	}
}

/// Every option name of the command table, typed by how its value is read: a flag is a `Bool`,
/// one value a `String` (or an `Int`, a `Double`), a repeatable option `[String]`. Declarations
/// (``OptionSpec``) and lookups (``ParsedArguments``) take these keys, so a misspelt or mistyped
/// option is a compile error rather than an option that is silently never set.
extension OptionKey where Value == Bool {
    /// `--accept`.
    static var accept: Self { Self("accept") }
    /// `--all`.
    static var all: Self { Self("all") }
    /// `--allow-development-rules`.
    static var allowDevelopmentRules: Self { Self("allow-development-rules") }
    /// `--api-only-scopes`.
    static var apiOnlyScopes: Self { Self("api-only-scopes") }
    /// `--batch`.
    static var batch: Self { Self("batch") }
    /// `--ci`.
    static var ci: Self { Self("ci") }
    /// `--consume`.
    static var consume: Self { Self("consume") }
    /// `--decline`.
    static var decline: Self { Self("decline") }
    /// `--dry-run`.
    static var dryRun: Self { Self("dry-run") }
    /// `--installed`.
    static var installed: Self { Self("installed") }
    /// `--help`.
    static var help: Self { Self("help") }
    /// `--json`.
    static var json: Self { Self("json") }
    /// `--keep`.
    static var keep: Self { Self("keep") }
    /// `--lenient`.
    static var lenient: Self { Self("lenient") }
    /// `--save-to-files`.
    static var saveToFiles: Self { Self("save-to-files") }
    /// `--no-webpage-retry`.
    static var noWebpageRetry: Self { Self("no-webpage-retry") }
    /// `--xml`.
    static var xml: Self { Self("xml") }
}

extension OptionKey where Value == String {
    /// `--app`.
    static var app: Self { Self("app") }
    /// `--build-path`.
    static var buildPath: Self { Self("build-path") }
    /// `--configuration`.
    static var configuration: Self { Self("configuration") }
    /// `--import`.
    static var importProject: Self { Self("import") }
    /// `--output`.
    static var output: Self { Self("output") }
    /// `--activity-items`.
    static var activityItems: Self { Self("activity-items") }
    /// `--as-bundle`.
    static var asBundle: Self { Self("as-bundle") }
    /// `--conforming-to`.
    static var conformingTo: Self { Self("conforming-to") }
    /// `--device`.
    static var device: Self { Self("device") }
    /// `--extension`.
    static var `extension`: Self { Self("extension") }
    /// `--extension-executable`.
    static var extensionExecutable: Self { Self("extension-executable") }
    /// `--exthost`.
    static var exthost: Self { Self("exthost") }
    /// `--from`.
    static var from: Self { Self("from") }
    /// `--group`.
    static var group: Self { Self("group") }
    /// `--save-to`.
    static var saveTo: Self { Self("save-to") }
    /// `--html`.
    static var html: Self { Self("html") }
    /// `--template`.
    static var template: Self { Self("template") }
    /// `--ios`.
    static var ios: Self { Self("ios") }
    /// `--memory-enforcement`.
    static var memoryEnforcement: Self { Self("memory-enforcement") }
    /// `--move-to-app`.
    static var moveToApp: Self { Self("move-to-app") }
    /// `--payload`.
    static var payload: Self { Self("payload") }
    /// `--payload-json`.
    static var payloadJSON: Self { Self("payload-json") }
    /// `--perform`.
    static var perform: Self { Self("perform") }
    /// `--pick`.
    static var pick: Self { Self("pick") }
    /// `--port-file`.
    /// `--root`.
    static var root: Self { Self("root") }
    /// `--rule`.
    static var rule: Self { Self("rule") }
    /// `--seed`.
    static var seed: Self { Self("seed") }
    /// `--shuffle-loads`.
    static var shuffleLoads: Self { Self("shuffle-loads") }
    /// `--stop-file`.
    static var stopFile: Self { Self("stop-file") }
    /// `--to`.
    static var to: Self { Self("to") }
    /// `--type`.
    static var type: Self { Self("type") }
    /// `--ui`.
    static var ui: Self { Self("ui") }
    /// `--url`.
    static var url: Self { Self("url") }
    /// `--with`.
    static var with: Self { Self("with") }
}

extension OptionKey where Value == Int {
    /// `--attachments`.
    static var attachments: Self { Self("attachments") }
    /// `--max-delay`.
    static var maxDelay: Self { Self("max-delay") }
    /// `--max-ratio`.
    static var maxRatio: Self { Self("max-ratio") }
    /// `--max-size`.
    static var maxSize: Self { Self("max-size") }
    /// `--open-files`.
    static var openFiles: Self { Self("open-files") }
    /// `--processes`.
    static var processes: Self { Self("processes") }
    /// `--readers`.
    static var readers: Self { Self("readers") }
    /// `--repeat`.
    static var repeatCount: Self { Self("repeat") }
    /// `--timeout`.
    static var timeout: Self { Self("timeout") }
}

extension OptionKey where Value == Double {
    /// `--after`.
    static var after: Self { Self("after") }
    /// `--cancel-rate`.
    static var cancelRate: Self { Self("cancel-rate") }
    /// `--failure-rate`.
    static var failureRate: Self { Self("failure-rate") }
    /// `--limit`.
    static var limit: Self { Self("limit") }
    /// `--memory-limit`.
    static var memoryLimit: Self { Self("memory-limit") }
    /// `--stall-limit`.
    static var stallLimit: Self { Self("stall-limit") }
    /// `--wait`.
    static var wait: Self { Self("wait") }
}

extension OptionKey where Value == [String] {
    /// `--declarations`.
    static var declarations: Self { Self("declarations") }
    /// `--define`.
    static var define: Self { Self("define") }
    /// `--exclude`.
    static var exclude: Self { Self("exclude") }
    /// `--extension-argument`.
    static var extensionArgument: Self { Self("extension-argument") }
    /// `--items`.
    static var items: Self { Self("items") }
    /// `--payload-json`.
    static var payloadJSONs: Self { Self("payload-json") }
    /// `--payload`.
    static var payloads: Self { Self("payload") }
    /// `--products`.
    static var products: Self { Self("products") }
    /// `--text`.
    static var text: Self { Self("text") }
}

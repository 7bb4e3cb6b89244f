import ItemProviders

/// The `--json` reports of `exthost payload …`, one `Codable` type each: the command line prints
/// their encoding, and tests decode them.
public enum PayloadReports {
    /// `exthost payload show --json`.
    public struct Show: Codable, Sendable, Equatable {
        /// One extension item.
        public struct Item: Codable, Sendable, Equatable {
            public var attributedTitle: String?
            public var attributedContentText: String?
            public var attachments: [Attachment]
        }

        /// One attachment (item provider).
        public struct Attachment: Codable, Sendable, Equatable {
            public var suggestedName: String?
            /// The types the extension sees, in order (hidden representations left out).
            public var registeredTypeIdentifiers: [String]
            /// Every representation in registration order, hidden ones included.
            public var representations: [Representation]
        }

        /// One registered representation.
        public struct Representation: Codable, Sendable, Equatable {
            public var type: String
            /// `data`, `file`, `in-place`, …
            public var kind: String
            /// Who may see it (`all`, `team`, `group`, `ownProcess`).
            public var visibility: String
            /// Bytes, when known without loading it.
            public var size: Int64?
            /// Where the bytes come from: a file path, `text`, a URL, `generated`.
            public var origin: String
            public var loadDelayMilliseconds: Int
            /// The error every load ends with, as `domain code: message`.
            public var failWith: String?
        }

        /// The ITEMS path as given, or `preset NAME`.
        public var source: String
        /// Whether it is a Safari web-page share.
        public var webpage: Bool
        public var items: [Item]

        /// `payload`, described.
        public init(_ payload: Payload) {
            source = payload.source
            webpage = payload.isWebpage
            items = payload.descriptions.map { item in
                Item(
                    attributedTitle: item.title, attributedContentText: item.contentText,
                    attachments: item.attachments.map { attachment in
                        Attachment(
                            suggestedName: attachment.suggestedName,
                            registeredTypeIdentifiers: attachment.visibleTypeIdentifiers,
                            representations: attachment.representations.map {
                                Representation(
                                    type: $0.typeIdentifier, kind: $0.kind.description,
                                    visibility: $0.visibility.description, size: $0.byteCount, origin: $0.origin,
                                    loadDelayMilliseconds: $0.loadDelayMilliseconds, failWith: $0.failure)
                            })
                    })
            }
        }
    }

    /// `exthost payload presets --json`.
    public struct Presets: Codable, Sendable, Equatable {
        /// One preset and its evidence.
        public struct Preset: Codable, Sendable, Equatable {
            public var name: String
            public var sourceApp: String
            public var iosVersion: String
            /// `observed-log`, `documented` or `inferred`.
            public var confidence: String
            public var webpage: Bool
            public var items: [Item]
            public var citations: [String]
            public var notes: String?

            /// `preset`, described.
            public init(_ preset: PresetInfo) {
                name = preset.name
                sourceApp = preset.sourceApp
                iosVersion = preset.iosVersion
                confidence = preset.confidence
                webpage = preset.isWebpage
                items = preset.items.map { item in
                    Item(
                        attributedTitle: item.title, attributedContentText: item.contentText,
                        attachments: item.attachments.map {
                            Attachment(
                                types: $0.types, kind: $0.kind, suggestedName: $0.suggestedName, loadsAs: $0.loadsAs)
                        })
                }
                citations = preset.citations
                notes = preset.notes
            }
        }

        /// One item of a preset.
        public struct Item: Codable, Sendable, Equatable {
            public var attributedTitle: String?
            public var attributedContentText: String?
            public var attachments: [Attachment]
        }

        /// One attachment of a preset.
        public struct Attachment: Codable, Sendable, Equatable {
            /// The registered types in order.
            public var types: [String]
            /// `data`, `file` or `inplace`.
            public var kind: String
            public var suggestedName: String?
            /// What `loadItem` gives on a device, as the evidence says.
            public var loadsAs: String?
        }

        public var presets: [Preset]

        /// A report.
        package init(presets: [Preset]) { self.presets = presets }
    }
}

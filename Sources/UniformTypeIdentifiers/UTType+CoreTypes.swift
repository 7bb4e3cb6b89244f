import UniformTypes

// The types Apple's UTCoreTypes names (`UTType.jpeg`, …), each by its identifier.
extension UTType {
    /// `public.item`.
    public static var item: UTType { UTType(uti: "public.item") }
    /// `public.content`.
    public static var content: UTType { UTType(uti: "public.content") }
    /// `public.composite-content`.
    public static var compositeContent: UTType { UTType(uti: "public.composite-content") }
    /// `public.disk-image`.
    public static var diskImage: UTType { UTType(uti: "public.disk-image") }
    /// `public.data`.
    public static var data: UTType { UTType(uti: "public.data") }
    /// `public.directory`.
    public static var directory: UTType { UTType(uti: "public.directory") }
    /// `com.apple.resolvable`.
    public static var resolvable: UTType { UTType(uti: "com.apple.resolvable") }
    /// `public.symlink`.
    public static var symbolicLink: UTType { UTType(uti: "public.symlink") }
    /// `public.executable`.
    public static var executable: UTType { UTType(uti: "public.executable") }
    /// `com.apple.mount-point`.
    public static var mountPoint: UTType { UTType(uti: "com.apple.mount-point") }
    /// `com.apple.alias-file`.
    public static var aliasFile: UTType { UTType(uti: "com.apple.alias-file") }
    /// `com.apple.bookmark`.
    public static var urlBookmarkData: UTType { UTType(uti: "com.apple.bookmark") }
    /// `public.url`.
    public static var url: UTType { UTType(uti: "public.url") }
    /// `public.file-url`.
    public static var fileURL: UTType { UTType(uti: "public.file-url") }
    /// `public.text`.
    public static var text: UTType { UTType(uti: "public.text") }
    /// `public.plain-text`.
    public static var plainText: UTType { UTType(uti: "public.plain-text") }
    /// `public.utf8-plain-text`.
    public static var utf8PlainText: UTType { UTType(uti: "public.utf8-plain-text") }
    /// `public.utf16-external-plain-text`.
    public static var utf16ExternalPlainText: UTType { UTType(uti: "public.utf16-external-plain-text") }
    /// `public.utf16-plain-text`.
    public static var utf16PlainText: UTType { UTType(uti: "public.utf16-plain-text") }
    /// `public.delimited-values-text`.
    public static var delimitedText: UTType { UTType(uti: "public.delimited-values-text") }
    /// `public.comma-separated-values-text`.
    public static var commaSeparatedText: UTType { UTType(uti: "public.comma-separated-values-text") }
    /// `public.tab-separated-values-text`.
    public static var tabSeparatedText: UTType { UTType(uti: "public.tab-separated-values-text") }
    /// `public.utf8-tab-separated-values-text`.
    public static var utf8TabSeparatedText: UTType { UTType(uti: "public.utf8-tab-separated-values-text") }
    /// `public.rtf`.
    public static var rtf: UTType { UTType(uti: "public.rtf") }
    /// `public.html`.
    public static var html: UTType { UTType(uti: "public.html") }
    /// `public.xml`.
    public static var xml: UTType { UTType(uti: "public.xml") }
    /// `public.yaml`.
    public static var yaml: UTType { UTType(uti: "public.yaml") }
    /// `public.source-code`.
    public static var sourceCode: UTType { UTType(uti: "public.source-code") }
    /// `public.c-source`.
    public static var cSource: UTType { UTType(uti: "public.c-source") }
    /// `public.objective-c-source`.
    public static var objectiveCSource: UTType { UTType(uti: "public.objective-c-source") }
    /// `public.swift-source`.
    public static var swiftSource: UTType { UTType(uti: "public.swift-source") }
    /// `public.c-plus-plus-source`.
    public static var cPlusPlusSource: UTType { UTType(uti: "public.c-plus-plus-source") }
    /// `public.c-header`.
    public static var cHeader: UTType { UTType(uti: "public.c-header") }
    /// `public.script`.
    public static var script: UTType { UTType(uti: "public.script") }
    /// `com.netscape.javascript-source`.
    public static var javaScript: UTType { UTType(uti: "com.netscape.javascript-source") }
    /// `public.shell-script`.
    public static var shellScript: UTType { UTType(uti: "public.shell-script") }
    /// `public.python-script`.
    public static var pythonScript: UTType { UTType(uti: "public.python-script") }
    /// `public.ruby-script`.
    public static var rubyScript: UTType { UTType(uti: "public.ruby-script") }
    /// `public.json`.
    public static var json: UTType { UTType(uti: "public.json") }
    /// `com.apple.property-list`.
    public static var propertyList: UTType { UTType(uti: "com.apple.property-list") }
    /// `com.apple.xml-property-list`.
    public static var xmlPropertyList: UTType { UTType(uti: "com.apple.xml-property-list") }
    /// `com.apple.binary-property-list`.
    public static var binaryPropertyList: UTType { UTType(uti: "com.apple.binary-property-list") }
    /// `com.adobe.pdf`.
    public static var pdf: UTType { UTType(uti: "com.adobe.pdf") }
    /// `com.apple.rtfd`.
    public static var rtfd: UTType { UTType(uti: "com.apple.rtfd") }
    /// `com.apple.flat-rtfd`.
    public static var flatRTFD: UTType { UTType(uti: "com.apple.flat-rtfd") }
    /// `com.apple.webarchive`.
    public static var webArchive: UTType { UTType(uti: "com.apple.webarchive") }
    /// `public.image`.
    public static var image: UTType { UTType(uti: "public.image") }
    /// `public.jpeg`.
    public static var jpeg: UTType { UTType(uti: "public.jpeg") }
    /// `public.tiff`.
    public static var tiff: UTType { UTType(uti: "public.tiff") }
    /// `com.compuserve.gif`.
    public static var gif: UTType { UTType(uti: "com.compuserve.gif") }
    /// `public.png`.
    public static var png: UTType { UTType(uti: "public.png") }
    /// `com.apple.icns`.
    public static var icns: UTType { UTType(uti: "com.apple.icns") }
    /// `com.microsoft.bmp`.
    public static var bmp: UTType { UTType(uti: "com.microsoft.bmp") }
    /// `com.microsoft.ico`.
    public static var ico: UTType { UTType(uti: "com.microsoft.ico") }
    /// `public.camera-raw-image`.
    public static var rawImage: UTType { UTType(uti: "public.camera-raw-image") }
    /// `public.svg-image`.
    public static var svg: UTType { UTType(uti: "public.svg-image") }
    /// `com.apple.live-photo`.
    public static var livePhoto: UTType { UTType(uti: "com.apple.live-photo") }
    /// `public.heif`.
    public static var heif: UTType { UTType(uti: "public.heif") }
    /// `public.heic`.
    public static var heic: UTType { UTType(uti: "public.heic") }
    /// `org.webmproject.webp`.
    public static var webP: UTType { UTType(uti: "org.webmproject.webp") }
    /// `public.3d-content`.
    public static var threeDContent: UTType { UTType(uti: "public.3d-content") }
    /// `com.pixar.universal-scene-description`.
    public static var usd: UTType { UTType(uti: "com.pixar.universal-scene-description") }
    /// `com.pixar.universal-scene-description-mobile`.
    public static var usdz: UTType { UTType(uti: "com.pixar.universal-scene-description-mobile") }
    /// `public.audiovisual-content`.
    public static var audiovisualContent: UTType { UTType(uti: "public.audiovisual-content") }
    /// `public.movie`.
    public static var movie: UTType { UTType(uti: "public.movie") }
    /// `public.video`.
    public static var video: UTType { UTType(uti: "public.video") }
    /// `public.audio`.
    public static var audio: UTType { UTType(uti: "public.audio") }
    /// `com.apple.quicktime-movie`.
    public static var quickTimeMovie: UTType { UTType(uti: "com.apple.quicktime-movie") }
    /// `public.mpeg`.
    public static var mpeg: UTType { UTType(uti: "public.mpeg") }
    /// `public.mpeg-2-video`.
    public static var mpeg2Video: UTType { UTType(uti: "public.mpeg-2-video") }
    /// `public.mpeg-2-transport-stream`.
    public static var mpeg2TransportStream: UTType { UTType(uti: "public.mpeg-2-transport-stream") }
    /// `public.mp3`.
    public static var mp3: UTType { UTType(uti: "public.mp3") }
    /// `public.mpeg-4`.
    public static var mpeg4Movie: UTType { UTType(uti: "public.mpeg-4") }
    /// `public.mpeg-4-audio`.
    public static var mpeg4Audio: UTType { UTType(uti: "public.mpeg-4-audio") }
    /// `com.apple.protected-mpeg-4-audio`.
    public static var appleProtectedMPEG4Audio: UTType { UTType(uti: "com.apple.protected-mpeg-4-audio") }
    /// `com.apple.protected-mpeg-4-video`.
    public static var appleProtectedMPEG4Video: UTType { UTType(uti: "com.apple.protected-mpeg-4-video") }
    /// `public.avi`.
    public static var avi: UTType { UTType(uti: "public.avi") }
    /// `public.aiff-audio`.
    public static var aiff: UTType { UTType(uti: "public.aiff-audio") }
    /// `com.microsoft.waveform-audio`.
    public static var wav: UTType { UTType(uti: "com.microsoft.waveform-audio") }
    /// `public.midi-audio`.
    public static var midi: UTType { UTType(uti: "public.midi-audio") }
    /// `public.playlist`.
    public static var playlist: UTType { UTType(uti: "public.playlist") }
    /// `public.m3u-playlist`.
    public static var m3uPlaylist: UTType { UTType(uti: "public.m3u-playlist") }
    /// `public.folder`.
    public static var folder: UTType { UTType(uti: "public.folder") }
    /// `public.volume`.
    public static var volume: UTType { UTType(uti: "public.volume") }
    /// `com.apple.package`.
    public static var package: UTType { UTType(uti: "com.apple.package") }
    /// `com.apple.bundle`.
    public static var bundle: UTType { UTType(uti: "com.apple.bundle") }
    /// `com.apple.plugin`.
    public static var pluginBundle: UTType { UTType(uti: "com.apple.plugin") }
    /// `com.apple.framework`.
    public static var framework: UTType { UTType(uti: "com.apple.framework") }
    /// `com.apple.application`.
    public static var application: UTType { UTType(uti: "com.apple.application") }
    /// `com.apple.application-bundle`.
    public static var applicationBundle: UTType { UTType(uti: "com.apple.application-bundle") }
    /// `com.apple.application-and-system-extension`.
    public static var applicationExtension: UTType { UTType(uti: "com.apple.application-and-system-extension") }
    /// `public.unix-executable`.
    public static var unixExecutable: UTType { UTType(uti: "public.unix-executable") }
    /// `com.microsoft.windows-executable`.
    public static var exe: UTType { UTType(uti: "com.microsoft.windows-executable") }
    /// `public.archive`.
    public static var archive: UTType { UTType(uti: "public.archive") }
    /// `org.gnu.gnu-zip-archive`.
    public static var gzip: UTType { UTType(uti: "org.gnu.gnu-zip-archive") }
    /// `public.bzip2-archive`.
    public static var bz2: UTType { UTType(uti: "public.bzip2-archive") }
    /// `public.zip-archive`.
    public static var zip: UTType { UTType(uti: "public.zip-archive") }
    /// `com.apple.archive`.
    public static var appleArchive: UTType { UTType(uti: "com.apple.archive") }
    /// `public.tar-archive`.
    public static var tarArchive: UTType { UTType(uti: "public.tar-archive") }
    /// `public.spreadsheet`.
    public static var spreadsheet: UTType { UTType(uti: "public.spreadsheet") }
    /// `public.presentation`.
    public static var presentation: UTType { UTType(uti: "public.presentation") }
    /// `public.database`.
    public static var database: UTType { UTType(uti: "public.database") }
    /// `public.message`.
    public static var message: UTType { UTType(uti: "public.message") }
    /// `public.contact`.
    public static var contact: UTType { UTType(uti: "public.contact") }
    /// `public.vcard`.
    public static var vCard: UTType { UTType(uti: "public.vcard") }
    /// `public.to-do-item`.
    public static var toDoItem: UTType { UTType(uti: "public.to-do-item") }
    /// `public.calendar-event`.
    public static var calendarEvent: UTType { UTType(uti: "public.calendar-event") }
    /// `public.email-message`.
    public static var emailMessage: UTType { UTType(uti: "public.email-message") }
    /// `com.apple.internet-location`.
    public static var internetLocation: UTType { UTType(uti: "com.apple.internet-location") }
    /// `com.microsoft.internet-shortcut`.
    public static var internetShortcut: UTType { UTType(uti: "com.microsoft.internet-shortcut") }
    /// `public.font`.
    public static var font: UTType { UTType(uti: "public.font") }
    /// `public.bookmark`.
    public static var bookmark: UTType { UTType(uti: "public.bookmark") }
    /// `com.rsa.pkcs-12`.
    public static var pkcs12: UTType { UTType(uti: "com.rsa.pkcs-12") }
    /// `public.x509-certificate`.
    public static var x509Certificate: UTType { UTType(uti: "public.x509-certificate") }
    /// `org.idpf.epub-container`.
    public static var epub: UTType { UTType(uti: "org.idpf.epub-container") }
    /// `public.log`.
    public static var log: UTType { UTType(uti: "public.log") }
}

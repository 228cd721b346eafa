/// A structured name, the `N` property: five components, each a list.
public struct VCardName: Sendable, Hashable {
    /// Family names (surnames).
    public var familyNames: [String]
    /// Given names.
    public var givenNames: [String]
    /// Additional (middle) names.
    public var additionalNames: [String]
    /// Honorific prefixes, such as `Dr.`.
    public var honorificPrefixes: [String]
    /// Honorific suffixes, such as `Jr.`.
    public var honorificSuffixes: [String]

    /// Creates a name.
    public init(familyNames: [String] = [], givenNames: [String] = [], additionalNames: [String] = [],
                honorificPrefixes: [String] = [], honorificSuffixes: [String] = []) {
        self.familyNames = familyNames
        self.givenNames = givenNames
        self.additionalNames = additionalNames
        self.honorificPrefixes = honorificPrefixes
        self.honorificSuffixes = honorificSuffixes
    }

    /// Reads the components of an `N` property; missing components are empty.
    public init(property: VCardProperty) {
        let components = property.components.map { $0.filter { !$0.isEmpty } }
        func component(_ index: Int) -> [String] { index < components.count ? components[index] : [] }
        self.init(familyNames: component(0), givenNames: component(1), additionalNames: component(2),
                  honorificPrefixes: component(3), honorificSuffixes: component(4))
    }

    /// The `N` property, always with all five components (as vCard 3.0
    /// readers expect).
    public var property: VCardProperty {
        VCardProperty(name: "N", components: [familyNames, givenNames, additionalNames, honorificPrefixes,
                                              honorificSuffixes])
    }
}

// Once per iteration, a real published address and its fictitious test profile, as collection
// variables any request of yours can use: {{addr.street}}, {{addr.houseNumber}}, {{addr.unit}},
// {{addr.postcode}}, {{addr.city}}, {{addr.district}}, {{addr.region}}, {{addr.regionCode}},
// {{addr.country}}, {{addr.formatted}}, {{addr.id}}, {{addr.latitude}}, {{addr.longitude}},
// {{addr.timeZone}}, {{person.name}}, {{person.givenName}}, {{person.familyName}},
// {{person.email}}, {{person.phone}}, {{person.dateOfBirth}}. Set agsCountry (default US) and,
// for the same people on every run, agsSeed (each iteration draws with its seed and number).
// (In a function: the sandbox keeps one scope for the run, and a const would be declared twice.)
(function () {
    const iteration = String(pm.info.iteration);
    if (pm.collectionVariables.get("ags.iteration") !== iteration) {
        const seed = pm.variables.get("agsSeed");
        const query = ["country=" + encodeURIComponent(pm.variables.get("agsCountry") || "US")];
        if (seed) query.push("seed=" + encodeURIComponent(seed + "-" + iteration));
        pm.sendRequest({
            url: pm.variables.replaceIn("{{baseUrl}}") + "/api/v1/generate?" + query.join("&"),
            method: "GET",
            header: { Authorization: "Bearer " + pm.variables.replaceIn("{{bearerToken}}") },
        }, function (error, response) {
            if (error || response.code !== 200) {
                console.warn("no address drawn for {{addr.*}}: " + (error || response.text()));
                return;
            }
            const drawn = response.json().data.result;
            const address = drawn.address, profile = drawn.profile;
            Object.entries(address.components).forEach(function ([name, value]) {
                pm.collectionVariables.set("addr." + name, value === null ? "" : value);
            });
            const more = {
                "addr.country": address.countryCode, "addr.formatted": address.formattedAddress,
                "addr.id": address.id, "addr.latitude": address.coordinates.latitude,
                "addr.longitude": address.coordinates.longitude, "addr.timeZone": address.timeZone,
                "person.name": profile.fullName, "person.givenName": profile.givenName,
                "person.familyName": profile.familyName, "person.email": profile.email,
                "person.phone": profile.phone.number, "person.dateOfBirth": profile.dateOfBirth,
                "ags.iteration": iteration,
            };
            Object.entries(more).forEach(function ([name, value]) { pm.collectionVariables.set(name, value); });
        });
    }
})();

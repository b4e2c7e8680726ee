/** The card holder the integration suites create (POST /customers): one verified individual. */
export const ADA_OBI = {
  name: "Ada Obi",
  reference: "ada",
  type: "individual",
  verifications: ["tier-2"],
  metadata: {},
  claims: {
    individualInformation: {
      firstName: "Ada",
      lastName: "Obi",
      email: "ada@example.com",
      phoneNumber: "+2348012345678",
      dateOfBirth: "1990-05-01",
    },
  },
};

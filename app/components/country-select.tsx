import { SelectField } from "~/components/form";
import { COUNTRIES } from "~/lib/countries";

/** The country select of the registration and trading-room forms: every country with its dialling code. */
export function CountrySelect({ required }: { required?: boolean }) {
  return (
    <SelectField label="Country" name="country" defaultValue="" autoComplete="country-name" required={required}>
      <option value="" disabled>
        Select your country
      </option>
      {COUNTRIES.map((country) => (
        <option key={country.name} value={country.name}>
          {country.name} ({country.dialCode})
        </option>
      ))}
    </SelectField>
  );
}

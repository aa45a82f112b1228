export { DateField, type DateFieldProps } from './date-field.tsx';
